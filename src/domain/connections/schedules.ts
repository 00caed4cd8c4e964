/**
 * Times-of-day schedules of pickups (docs/CONNECTIONS.md): "06:00 and 14:30 in Europe/Berlin".
 * The wall-clock times are turned into instants with the time zone rules of Intl (the ICU data
 * Node.js carries), so a change to or from summer time moves nothing a person would notice:
 *
 * - a time that does not exist that day (the clock jumps from 02:00 to 03:00) runs as late as the
 *   jump makes it: 02:30 runs at 03:30, once;
 * - a time that happens twice (the clock goes back from 03:00 to 02:00) runs at its first
 *   occurrence, once.
 *
 * (These are the rules of cron daemons and of Temporal's "compatible" disambiguation.)
 */

import { instantOfWallClock, zoneOffsetMs } from '../time-zones.ts';

export { isTimeZone } from '../time-zones.ts';

/** The most times of day a pickup may have. */
export const TIMES_OF_DAY_LIMIT = 24;

export const TIME_OF_DAY_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

const DAY = 86_400_000;

/** The first time of the schedule strictly after `after` (epoch milliseconds). */
export function nextTimeOfDay(after: number, timesOfDay: readonly string[], timeZone: string): number {
  // The zone's wall clock at `after`, written as if it were UTC.
  const today = after + zoneOffsetMs(timeZone, after);
  const midnight = today - (((today % DAY) + DAY) % DAY);
  let next = Number.POSITIVE_INFINITY;
  // Yesterday to two days on: a time of yesterday pushed past midnight by a jump counts too.
  for (let day = -1; day <= 2; day += 1) {
    for (const time of timesOfDay) {
      const [hours, minutes] = time.split(':').map(Number) as [number, number];
      const instant = instantOfWallClock(midnight + day * DAY + hours * 3_600_000 + minutes * 60_000, timeZone);
      if (instant > after && instant < next) next = instant;
    }
  }
  return next;
}

/** The times of a schedule without repeats, in the order of the day. */
export function normalizeTimesOfDay(timesOfDay: readonly string[]): string[] {
  return [...new Set(timesOfDay)].sort();
}

/** The longest a failing connection's pickups wait (or their interval, if longer), in minutes. */
const BACKOFF_CEILING_MINUTES = 360;

export interface Schedule {
  intervalMinutes: number | null;
  timesOfDay: readonly string[] | null;
  timeZone: string | null;
}

/**
 * When a pickup runs next after `now`, its connection having failed `failures` times in a row:
 * every N minutes, the interval doubling with each failure up to six hours (or the interval, if
 * longer); at times of day, skipping the times that come within that wait (an hour after one
 * failure, doubling up to six hours).
 */
export function nextRunAfter(schedule: Schedule, now: number, failures: number): number {
  const doubling = 2 ** Math.min(failures, 10);
  if (schedule.timesOfDay !== null && schedule.timeZone !== null) {
    const waitMinutes = failures === 0 ? 0 : Math.min(30 * doubling, BACKOFF_CEILING_MINUTES);
    return nextTimeOfDay(now + waitMinutes * 60_000, schedule.timesOfDay, schedule.timeZone);
  }
  const interval = schedule.intervalMinutes!;
  return now + Math.min(interval * doubling, Math.max(interval, BACKOFF_CEILING_MINUTES)) * 60_000;
}
