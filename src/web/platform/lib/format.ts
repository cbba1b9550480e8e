import { TIME_ZONE } from '#shared/platform/constants';
import { formatDateAndTime } from '#shared/platform/format';

/** '22 nov 2026, 11:30 p. m.' in Caracas time: the app's one way of writing a date and time. */
export function formatDateTime(iso: string): string {
  return formatDateAndTime(iso) || iso;
}

const clock = new Intl.DateTimeFormat('es-VE', {
  timeZone: TIME_ZONE,
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

/** '11:30:05 p. m.' in Caracas time (it ends with a period of its own: no sentence adds one). */
export const formatClock = (at: number | Date) => clock.format(at);
