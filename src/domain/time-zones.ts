/**
 * Time zones by their IANA names, with the rules of Intl (the ICU data Node.js carries): whether a
 * name is known, a zone's offset at an instant, and the instant of a wall-clock time. Read by the
 * CSV dates of a mapping with a time zone and by the pickups' times-of-day schedules.
 */

/** Formatters by time zone: building one is costly, and a process meets few zones. */
const zoneFormatters = new Map<string, Intl.DateTimeFormat>();

function zoneFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = zoneFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    zoneFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether a name is an IANA time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    zoneFormatter(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * Offsets already computed, by zone and quarter hour. Since 1970 every zone's offset is a
 * multiple of 15 minutes and changes at a whole quarter hour, so an offset holds for its whole
 * quarter hour; caching it keeps formatToParts, which is slow, out of most rows.
 */
const offsetCache = new Map<string, Map<number, number>>();
const OFFSET_BUCKET_MS = 15 * 60_000;
const OFFSET_CACHE_LIMIT = 20_000;

/** The zone's offset from UTC at an instant, in milliseconds (positive east of Greenwich). */
export function zoneOffsetMs(timeZone: string, epochMs: number): number {
  const bucket = Math.floor(epochMs / OFFSET_BUCKET_MS);
  let cache = offsetCache.get(timeZone);
  if (!cache) {
    cache = new Map();
    offsetCache.set(timeZone, cache);
  }
  const cached = cache.get(bucket);
  if (cached !== undefined) return cached;
  const offset = computeZoneOffsetMs(timeZone, bucket * OFFSET_BUCKET_MS);
  if (cache.size >= OFFSET_CACHE_LIMIT) cache.clear();
  cache.set(bucket, offset);
  return offset;
}

function computeZoneOffsetMs(timeZone: string, epochMs: number): number {
  const parts = zoneFormatter(timeZone).formatToParts(new Date(epochMs));
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const part of parts) {
    switch (part.type) {
      case 'year':
        year = Number(part.value);
        break;
      case 'month':
        month = Number(part.value);
        break;
      case 'day':
        day = Number(part.value);
        break;
      case 'hour':
        hour = Number(part.value);
        break;
      case 'minute':
        minute = Number(part.value);
        break;
      case 'second':
        second = Number(part.value);
        break;
    }
  }
  const wholeSeconds = epochMs - (((epochMs % 1000) + 1000) % 1000);
  return Date.UTC(year, month - 1, day, hour, minute, second) - wholeSeconds;
}

const DAY_MS = 86_400_000;

/**
 * The instant a wall-clock time of a zone happens (`localMs`: the wall clock written as if it were
 * UTC). Around a change of offset, a time that occurs twice (autumn) is taken at its first
 * occurrence, and a time that does not exist (spring) is moved forward by the gap, as ECMAScript
 * Temporal's "compatible" disambiguation and cron daemons do.
 */
export function instantOfWallClock(localMs: number, timeZone: string): number {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return localMs;
  const before = zoneOffsetMs(timeZone, localMs - DAY_MS);
  const after = zoneOffsetMs(timeZone, localMs + DAY_MS);
  const candidates = [before, after].filter((offset) => zoneOffsetMs(timeZone, localMs - offset) === offset).map((offset) => localMs - offset);
  if (candidates.length > 0) return Math.min(...candidates);
  // In the gap: the offset from before the change carries the time forward past it.
  return localMs - before;
}
