import { TZDate } from '@date-fns/tz';
import { TIME_ZONE } from './constants';

/* Kept apart from format.ts, so that the public pages' bundle, which formats, never carries the zone library. */

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * A wall-clock time in the campaign's time zone ('2026-11-28T18:00', what a datetime-local field holds)
 * as an instant, whatever the zone of the device or server reading it; undefined when it is not one.
 * The zone's rules come from the runtime's time zone data through @date-fns/tz (docs/decisions/078).
 */
export function wallTimeToInstant(wallTime: string, timeZone: string = TIME_ZONE): Date | undefined {
  const m = WALL_TIME.exec(wallTime);
  if (!m) return undefined;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  const instant = new Date(new TZDate(year, month - 1, day, hour, minute, timeZone).getTime());
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}

/** An instant as a wall-clock time in the campaign's time zone, for a datetime-local field. */
export function instantToWallTime(iso: string, timeZone: string = TIME_ZONE): string {
  const d = new TZDate(new Date(iso).getTime(), timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}
