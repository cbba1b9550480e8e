import type { Kysely } from 'kysely';
import { runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import type { Actor } from '#server/platform/session/identity';
import { addDays } from '#shared/platform/format';
import type { AuditFilter } from './audit.repository';

/**
 * The audit log was exported: its own audit row, whose details are the filters asked (who took which
 * part of the log), the export's one change (docs/decisions/072), stored before the file is sent.
 */
export function recordExport(
  db: Kysely<Database>,
  filters: Record<string, unknown>,
  actor: Actor,
  now: Date,
): Promise<void> {
  const details = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined));
  return runChange(db, ({ audit }) =>
    audit({ actorEmail: actor.email, action: 'audit.export', ip: actor.ip, details, at: now }),
  );
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** How far the zone's clock is ahead of UTC at an instant, in milliseconds. */
function zoneOffsetMs(instant: number, timeZone: string): number {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    offsetFormatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant a calendar day (YYYY-MM-DD) begins in a time zone. */
export function startOfDay(date: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  let instant = guess - zoneOffsetMs(guess, timeZone);
  // Once more, in case the first guess fell on the other side of a change of offset.
  instant = guess - zoneOffsetMs(instant, timeZone);
  return new Date(instant);
}

/** The filters of the screen as the repository takes them: dates become instants of the campaign's zone. */
export function auditFilter(
  q: {
    person?: string | undefined;
    action?: string | undefined;
    department?: string | undefined;
    from?: string | undefined;
    to?: string | undefined;
  },
  timeZone: string,
): AuditFilter {
  return {
    person: q.person?.toLowerCase(),
    action: q.action,
    department: q.department,
    fromIso: q.from ? startOfDay(q.from, timeZone).toISOString() : undefined,
    untilIso: q.to ? startOfDay(addDays(q.to, 1), timeZone).toISOString() : undefined,
  };
}
