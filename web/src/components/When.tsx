import { formatCalendarDate, formatDateTime, formatDateTimeSeconds, formatMomentWithZone, formatTimestamp, isCalendarDay, isoCalendarDate } from '../format.ts';

type TimeValue = string | number | null | undefined;

/**
 * A moment in the reader's time zone, with the zone named on hover (and to a screen reader, by
 * the title). `seconds` writes the seconds too.
 */
export function Moment({ value, seconds = false }: { value: TimeValue; seconds?: boolean }) {
  if (value === null || value === undefined || value === '') return <>—</>;
  const milliseconds = typeof value === 'number' ? value : Date.parse(value);
  return (
    <time dateTime={Number.isFinite(milliseconds) ? new Date(milliseconds).toISOString() : undefined} title={formatMomentWithZone(value)}>
      {seconds ? formatDateTimeSeconds(value) : formatDateTime(value)}
    </time>
  );
}

/** A calendar date as the bank wrote it: the same day in every time zone, with no time. */
export function CalendarDate({ value }: { value: TimeValue }) {
  if (value === null || value === undefined || value === '') return <>—</>;
  return <time dateTime={isoCalendarDate(value)}>{formatCalendarDate(value)}</time>;
}

/**
 * A transaction's time: its calendar date when its file gave only a day, else
 * its date and time in UTC, the zone named (the reader's own time on hover). Its day never moves
 * with the reader's zone.
 */
export function Timestamp({ value }: { value: TimeValue }) {
  if (isCalendarDay(value)) return <CalendarDate value={value} />;
  if (value === null || value === undefined || value === '') return <>—</>;
  const milliseconds = typeof value === 'number' ? value : Date.parse(value);
  return (
    <time
      dateTime={Number.isFinite(milliseconds) ? new Date(milliseconds).toISOString() : undefined}
      title={`In your time zone: ${formatMomentWithZone(value)}`}
    >
      {formatTimestamp(value)}
    </time>
  );
}
