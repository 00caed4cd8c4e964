import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTimeZone, nextRunAfter, nextTimeOfDay } from './schedules.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (instant: number) => new Date(instant).toISOString();

/** The successive runs of a schedule from an instant on. */
function runs(from: string, times: string[], timeZone: string, count: number): string[] {
  const answer: string[] = [];
  let after = at(from);
  for (let index = 0; index < count; index += 1) {
    after = nextTimeOfDay(after, times, timeZone);
    answer.push(iso(after));
  }
  return answer;
}

describe('times-of-day schedules', () => {
  it('knows IANA time zones through Intl and refuses others', () => {
    assert.equal(isTimeZone('Europe/Berlin'), true);
    assert.equal(isTimeZone('UTC'), true);
    assert.equal(isTimeZone('Mars/Olympus_Mons'), false);
    assert.equal(isTimeZone('+01:00 or so'), false);
  });

  it('runs at the wall-clock times of the zone, in winter and in summer', () => {
    assert.deepEqual(runs('2026-01-10T00:00:00Z', ['06:00', '14:30'], 'Europe/Berlin', 3), [
      '2026-01-10T05:00:00.000Z',
      '2026-01-10T13:30:00.000Z',
      '2026-01-11T05:00:00.000Z',
    ]);
    assert.deepEqual(runs('2026-07-10T00:00:00Z', ['06:00', '14:30'], 'Europe/Berlin', 2), ['2026-07-10T04:00:00.000Z', '2026-07-10T12:30:00.000Z']);
    assert.deepEqual(runs('2026-07-10T00:00:00Z', ['06:00'], 'Asia/Kolkata', 2), ['2026-07-10T00:30:00.000Z', '2026-07-11T00:30:00.000Z']);
    assert.deepEqual(runs('2026-07-10T05:00:00Z', ['06:00'], 'UTC', 1), ['2026-07-10T06:00:00.000Z']);
  });

  it('is strictly after the instant given: a run at 06:00 next runs at the next time', () => {
    assert.equal(iso(nextTimeOfDay(at('2026-01-10T05:00:00Z'), ['06:00', '14:30'], 'Europe/Berlin')), '2026-01-10T13:30:00.000Z');
  });

  it('Europe/Berlin, last Sunday of March: a time the clock jumps over runs once, as late as the jump makes it', () => {
    // 29 March 2026: at 02:00 CET the clock jumps to 03:00 CEST; 02:30 does not exist that day.
    assert.deepEqual(runs('2026-03-28T00:00:00Z', ['02:30', '06:00'], 'Europe/Berlin', 6), [
      '2026-03-28T01:30:00.000Z', // 02:30 CET
      '2026-03-28T05:00:00.000Z', // 06:00 CET
      '2026-03-29T01:30:00.000Z', // 02:30 pushed to 03:30 CEST
      '2026-03-29T04:00:00.000Z', // 06:00 CEST
      '2026-03-30T00:30:00.000Z', // 02:30 CEST
      '2026-03-30T04:00:00.000Z',
    ]);
  });

  it('Europe/Berlin, last Sunday of October: a time that happens twice runs once, at its first occurrence', () => {
    // 25 October 2026: at 03:00 CEST the clock goes back to 02:00 CET; 02:30 happens twice.
    assert.deepEqual(runs('2026-10-24T01:00:00Z', ['02:30', '06:00'], 'Europe/Berlin', 6), [
      '2026-10-24T04:00:00.000Z', // 06:00 CEST
      '2026-10-25T00:30:00.000Z', // 02:30 CEST, the first 02:30
      '2026-10-25T05:00:00.000Z', // 06:00 CET (not 01:30Z, the second 02:30)
      '2026-10-26T01:30:00.000Z', // 02:30 CET
      '2026-10-26T05:00:00.000Z',
      '2026-10-27T01:30:00.000Z',
    ]);
  });

  it('keeps the wall-clock time of a zone whose jump is at midnight', () => {
    // America/Santiago, 6 September 2026: midnight becomes 01:00; 00:30 runs at 01:30, 06:00 stays 06:00.
    assert.deepEqual(runs('2026-09-05T12:00:00Z', ['00:30', '06:00'], 'America/Santiago', 3), [
      '2026-09-06T04:30:00.000Z',
      '2026-09-06T09:00:00.000Z',
      '2026-09-07T03:30:00.000Z',
    ]);
  });
});

describe('the next run of a pickup', () => {
  it('waits its interval, doubled by each failure of its connection up to six hours', () => {
    const now = at('2026-01-10T00:00:00Z');
    const minutesLater = (failures: number, intervalMinutes: number) =>
      (nextRunAfter({ intervalMinutes, timesOfDay: null, timeZone: null }, now, failures) - now) / 60_000;
    assert.deepEqual(
      [0, 1, 2, 5].map((failures) => minutesLater(failures, 30)),
      [30, 60, 120, 360],
    );
    assert.equal(minutesLater(3, 1440), 1440, 'an interval longer than six hours is not backed off');
  });

  it('at times of day skips, while the connection fails, the times within an hour, doubling up to six hours', () => {
    const schedule = { intervalMinutes: null, timesOfDay: ['06:00', '06:30', '09:00', '18:00'], timeZone: 'Europe/Berlin' };
    const now = at('2026-01-10T05:00:00Z'); // 06:00 in Berlin
    assert.equal(iso(nextRunAfter(schedule, now, 0)), '2026-01-10T05:30:00.000Z');
    assert.equal(iso(nextRunAfter(schedule, now, 1)), '2026-01-10T08:00:00.000Z');
    assert.equal(iso(nextRunAfter(schedule, now, 4)), '2026-01-10T17:00:00.000Z');
  });
});
