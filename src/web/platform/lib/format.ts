import { TIME_ZONE } from '#shared/platform/constants';

const dateTime = new Intl.DateTimeFormat('es-VE', {
  timeZone: TIME_ZONE,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** '22 nov 2026, 11:30 p. m.' in Caracas time. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

const clock = new Intl.DateTimeFormat('es-VE', {
  timeZone: TIME_ZONE,
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

/** '11:30:05 p. m.' in Caracas time (it ends with a period of its own: no sentence adds one). */
export const formatClock = (at: number | Date) => clock.format(at);
