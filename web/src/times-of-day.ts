/** A pickup's times of day (docs/CONNECTIONS.md) as the Connections page reads them from a person. */

/**
 * Times of day as a person types them ("6:00, 14:30", "0630 18.00"), as the API takes them
 * (["06:00", "14:30"]), or what is wrong with them in words.
 */
export function parseTimesOfDay(text: string, limit: number): { times: string[] } | { problem: string } {
  const parts = text
    .split(/[,;\s]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0) return { problem: 'Enter at least one time of day, such as 06:00, or several separated by commas: 06:00, 14:30.' };
  const times: string[] = [];
  for (const part of parts) {
    const match = /^(\d{1,2})(?:[:.h]?(\d{2}))?$/.exec(part);
    const hours = match ? Number(match[1]) : NaN;
    const minutes = match ? Number(match[2] ?? '0') : NaN;
    if (!(hours >= 0 && hours <= 23 && minutes >= 0 && minutes <= 59)) {
      return { problem: `${part} is not a time of day. Write each time as hours and minutes on a 24-hour clock, such as 06:00 or 14:30.` };
    }
    const time = `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
    if (!times.includes(time)) times.push(time);
  }
  if (times.length > limit) return { problem: `Enter at most ${limit} times of day.` };
  return { times: times.sort() };
}
