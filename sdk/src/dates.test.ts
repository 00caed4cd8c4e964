import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { calendarDateProblem, calendarDateToEpochMs, isCalendarDate } from './dates.ts';

describe('calendar dates', () => {
  it('takes the days that exist, leap days of leap years included', () => {
    for (const date of ['2024-02-29', '2000-02-29', '2024-12-31', '2023-04-30', '1970-01-01', '0050-01-01']) {
      assert.equal(isCalendarDate(date), true, date);
      assert.equal(calendarDateProblem(date), null, date);
    }
  });

  it('refuses a day a month does not have, rather than rolling it into the next month', () => {
    assert.equal(isCalendarDate('2024-02-30'), false);
    const refused: [date: string, problem: string][] = [
      ['2024-02-30', 'February 2024 has no day 30; give a day from 01 to 29, e.g. 2024-02-29'],
      ['2023-02-29', 'February 2023 has no day 29; give a day from 01 to 28, e.g. 2023-02-28'],
      ['1900-02-29', 'February 1900 has no day 29; give a day from 01 to 28, e.g. 1900-02-28'],
      ['2024-04-31', 'April 2024 has no day 31; give a day from 01 to 30, e.g. 2024-04-30'],
      ['2024-01-00', 'January 2024 has no day 00; give a day from 01 to 31, e.g. 2024-01-31'],
      ['2024-13-01', 'there is no month 13; months run from 01 to 12'],
    ];
    for (const [date, problem] of refused) assert.equal(calendarDateProblem(date), `is not a date: ${problem}`);
    for (const shape of ['2024-3-1', '31.03.2024']) assert.equal(calendarDateProblem(shape), 'is not a date; write it as YYYY-MM-DD, e.g. 2024-03-31');
  });

  it('turns a date into its midnight UTC, and refuses one that does not exist', () => {
    assert.equal(calendarDateToEpochMs('2024-02-29'), Date.UTC(2024, 1, 29));
    assert.equal(calendarDateToEpochMs('0050-01-01'), Date.parse('0050-01-01T00:00:00Z'));
    assert.throws(() => calendarDateToEpochMs('2024-02-30'), /not a calendar date/);
  });
});
