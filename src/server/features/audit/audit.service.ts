import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { auditedCsvExport, type CsvExport, cursorPages } from '#server/platform/export/csv-export';
import { csvDateTime, csvZoneLabel } from '#server/platform/lib/csv';
import type { Actor } from '#server/platform/session/identity';
import type { Settings } from '#server/platform/settings/settings.repository';
import { AUDIT_PAGE_SIZE, auditActionLabel, auditTargetLabel } from '#shared/features/audit/audit';
import { addDays } from '#shared/platform/format';
import { type AuditFilter, createAdminAuditRepository } from './audit.repository';

const EXPORT_PAGE = 2_000;

type AuditFilters = Parameters<typeof auditFilter>[0];

/** The audit log as Auditoría reads it: its pages and its CSV export. */
export function createAuditService(db: Kysely<Database>, deps: { now: () => Date; settings: () => Promise<Settings> }) {
  const repo = createAdminAuditRepository(db);
  return {
    /** One page of the filtered log, newest first, and how many rows the filters keep. */
    async page(filters: AuditFilters, page: number) {
      const filter = auditFilter(filters, (await deps.settings()).timeZone);
      const [rows, total] = await Promise.all([
        repo.page(filter, AUDIT_PAGE_SIZE, (page - 1) * AUDIT_PAGE_SIZE),
        repo.count(filter),
      ]);
      return { rows, total };
    },

    /**
     * The filtered log as CSV. Its own audit row, whose details are the filters asked (who took which part
     * of the log), is stored before the file is sent (docs/decisions/072, 105).
     */
    async exportCsv(filters: AuditFilters, actor: Actor): Promise<CsvExport> {
      const now = deps.now();
      const { timeZone } = await deps.settings();
      const filter = auditFilter(filters, timeZone);
      const details = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined));
      return auditedCsvExport(db, {
        audit: { actorEmail: actor.email, action: 'audit.export', ip: actor.ip, details, at: now },
        name: 'auditoria',
        at: now,
        timeZone,
        header: [
          `Fecha y hora (${csvZoneLabel(now)})`,
          'Persona',
          'Acción',
          'Descripción',
          'Departamento',
          'Objetivo',
          'IP',
          'Detalles',
        ],
        // Page by page as the client reads: a long log never sits in memory at once.
        pages: cursorPages({
          first: null as number | null,
          size: EXPORT_PAGE,
          read: (before, size) => repo.exportPage(filter, before, size),
          next: (r) => r.id,
        }),
        line: (r) => [
          csvDateTime(r.at),
          r.actor_email,
          r.action,
          auditActionLabel(r.action),
          r.department_slug,
          r.target === null ? null : auditTargetLabel(r.action, r.target),
          r.ip,
          r.details,
        ],
      });
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;

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
