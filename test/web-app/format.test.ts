import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { dateFormatters, isCalendarDay, isoCalendarDate, isoTimestamp } from '../../web/src/format.ts';

/**
 * The web app's dates: a calendar date (a booking date, a value date, a day a file gave without a
 * time) is the same day in every time zone; a moment is written in the reader's zone, which the
 * hover names. Each zone is given explicitly to the pure formatters, and once more the process's
 * own zone (TZ) is set for the formatters the app uses, as a browser's would be.
 */

const ZONES = ['America/Los_Angeles', 'America/New_York', 'UTC', 'Europe/Berlin', 'Asia/Tokyo', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];
/** 7 January 2019 as the service stores a day: its midnight UTC. */
const JANUARY_7 = Date.UTC(2019, 0, 7);
/** 7 January 2019 at 18:30 UTC: a booking with its time. */
const JANUARY_7_EVENING = Date.UTC(2019, 0, 7, 18, 30);

describe('dates in the web app', () => {
  it('tells a calendar date (midnight UTC) from a moment', () => {
    assert.equal(isCalendarDay(JANUARY_7), true);
    assert.equal(isCalendarDay(String(JANUARY_7)), true);
    assert.equal(isCalendarDay('2019-01-07'), true);
    assert.equal(isCalendarDay(JANUARY_7_EVENING), false);
    assert.equal(isCalendarDay(JANUARY_7 + 1), false);
    assert.equal(isCalendarDay(Date.UTC(1969, 11, 31)), true, 'a day before 1970 too');
    assert.equal(isCalendarDay(null), false);
  });

  it('writes a calendar date as the same day, with no time, in every zone', () => {
    for (const zone of ZONES) {
      const formatters = dateFormatters('en-US', zone);
      assert.equal(formatters.calendarDate(JANUARY_7), 'Jan 7, 2019', zone);
      assert.equal(formatters.calendarDate('2019-01-07'), 'Jan 7, 2019', zone);
      assert.equal(formatters.calendarDate(String(JANUARY_7)), 'Jan 7, 2019', zone);
      assert.equal(formatters.timestamp(JANUARY_7), 'Jan 7, 2019', `${zone}: a timestamp of a day is its day`);
      assert.equal(formatters.calendarMonth('2019-01'), 'Jan 2019', zone);
    }
  });

  it('writes a calendar date in the reader’s language', () => {
    assert.equal(dateFormatters('de-DE', 'America/Los_Angeles').calendarDate(JANUARY_7), '07.01.2019');
    assert.equal(dateFormatters('de-DE', 'Asia/Tokyo').timestamp(JANUARY_7), '07.01.2019');
    assert.equal(dateFormatters('en-GB', 'America/Los_Angeles').calendarDate(JANUARY_7), '7 Jan 2019');
    assert.equal(dateFormatters('ja-JP', 'Pacific/Pago_Pago').calendarDate(JANUARY_7), '2019/01/07');
  });

  it('writes a booking with its time as the bank wrote it, in UTC with the zone named, the same day in every zone', () => {
    for (const zone of ZONES) assert.equal(dateFormatters('en-US', zone).timestamp(JANUARY_7_EVENING), 'Jan 7, 2019, 6:30 PM UTC', zone);
    assert.equal(dateFormatters('de-DE', 'Asia/Tokyo').timestamp(JANUARY_7_EVENING), '7. Jan. 2019, 18:30 UTC');
  });

  it('writes a moment in the reader’s zone, and names the zone for the hover', () => {
    assert.equal(dateFormatters('en-US', 'America/Los_Angeles').moment(JANUARY_7_EVENING), 'Jan 7, 2019, 10:30 AM');
    assert.equal(dateFormatters('en-US', 'Asia/Tokyo').moment(JANUARY_7_EVENING), 'Jan 8, 2019, 3:30 AM');
    assert.equal(dateFormatters('de-DE', 'Europe/Berlin').moment(JANUARY_7_EVENING), '07.01.2019, 19:30');
    const hover = dateFormatters('en-US', 'America/Los_Angeles').momentWithZone(JANUARY_7_EVENING);
    assert.match(hover, /January 7, 2019.*10:30:00 AM/);
    assert.match(hover, /Pacific Standard Time, America\/Los_Angeles\)$/);
    assert.match(dateFormatters('en-US', 'Asia/Tokyo').momentWithZone('2019-01-07T18:30:00Z'), /Japan Standard Time, Asia\/Tokyo\)$/);
    assert.equal(dateFormatters('en-US', 'UTC').moment(null), '—');
  });

  it('exports a day as YYYY-MM-DD and a moment as ISO 8601 in UTC', () => {
    assert.equal(isoTimestamp(JANUARY_7), '2019-01-07');
    assert.equal(isoTimestamp(String(JANUARY_7)), '2019-01-07');
    assert.equal(isoTimestamp(JANUARY_7_EVENING), '2019-01-07T18:30:00.000Z');
    assert.equal(isoCalendarDate(JANUARY_7), '2019-01-07');
    assert.equal(isoTimestamp(null), '');
  });

  it('uses the process’s own zone for the formatters the app uses, and still keeps the day', () => {
    const script =
      "import('./web/src/format.ts').then((f) => console.log(JSON.stringify([f.formatTimestamp(" +
      JANUARY_7 +
      '), f.formatCalendarDate(' +
      JANUARY_7 +
      '), f.formatTimestamp(' +
      JANUARY_7_EVENING +
      ')])))';
    const expected: Record<string, string> = {
      'America/Los_Angeles': 'Jan 7, 2019, 6:30 PM UTC',
      UTC: 'Jan 7, 2019, 6:30 PM UTC',
      'Asia/Tokyo': 'Jan 7, 2019, 6:30 PM UTC',
    };
    for (const [zone, moment] of Object.entries(expected)) {
      const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        env: { ...process.env, TZ: zone, LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8' },
        encoding: 'utf8',
      });
      assert.deepEqual(JSON.parse(output), ['Jan 7, 2019', 'Jan 7, 2019', moment], zone);
    }
  });
});
