import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeProblem, fitForPeople } from '../../web/src/messages.ts';
import { parseTimesOfDay } from '../../web/src/times-of-day.ts';

/** What the Connections page makes of what a person types and of what the server recorded of a file. */
describe('the connections page in words', () => {
  it('reads times of day as a person types them, and says what is wrong with them', () => {
    assert.deepEqual(parseTimesOfDay('18:00, 6:30', 24), { times: ['06:30', '18:00'] });
    assert.deepEqual(parseTimesOfDay('0630 14.15;9', 24), { times: ['06:30', '09:00', '14:15'] });
    assert.deepEqual(parseTimesOfDay('06:00, 6:00', 24), { times: ['06:00'] });
    assert.deepEqual(parseTimesOfDay('  ', 24), {
      problem: 'Enter at least one time of day, such as 06:00, or several separated by commas: 06:00, 14:30.',
    });
    assert.deepEqual(parseTimesOfDay('6:30, 24:00', 24), {
      problem: '24:00 is not a time of day. Write each time as hours and minutes on a 24-hour clock, such as 06:00 or 14:30.',
    });
    assert.deepEqual(parseTimesOfDay('06:60', 24), {
      problem: '06:60 is not a time of day. Write each time as hours and minutes on a 24-hour clock, such as 06:00 or 14:30.',
    });
    assert.deepEqual(parseTimesOfDay('1, 2, 3', 2), { problem: 'Enter at most 2 times of day.' });
  });

  it('words a file over the import size limit with its size, the limit and what to do', () => {
    const recorded =
      'the file is 1.5 MB, more than 64 KB, the most an import takes (IMPORT_MAX_BYTES); it is not fetched again while its name, size and time stay the same. ' +
      'Ask the sender to split it, or the operator to raise IMPORT_MAX_BYTES';
    const words = describeProblem({ code: 413, message: recorded, messageId: 'connections.fileTooLarge', details: [] });
    assert.match(
      words,
      /^The file is 1\.5 MB, more than 64 KB, the most an import takes, so it was not imported;.*Ask the sender to split it into smaller files/,
    );
    assert.ok(fitForPeople(words));
    const larger = describeProblem({
      code: 413,
      message: 'the file is larger than 64 KB, the most an import takes (IMPORT_MAX_BYTES); …',
      messageId: 'connections.fileTooLarge',
      details: [],
    });
    assert.match(larger, /^The file is larger than 64 KB, the most an import takes/);
  });
});
