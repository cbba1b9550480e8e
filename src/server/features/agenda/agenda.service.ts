import type { Kysely } from 'kysely';
import { type Change, runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { NotFound } from '#server/platform/http/errors';
import type { Actor } from '#server/platform/session/identity';
import type { AgendaEvent } from '#shared/features/agenda/agenda';
import { agendaAdminMessages } from '#shared/features/agenda/agenda.admin';
import { hourSortKey } from '#shared/platform/format';
import {
  type AgendaEventRow,
  agendaTodayAnswers,
  createAgendaRepository,
  type NewAgendaEvent,
  type SourcedAgendaRow,
} from './agenda.repository';

/** The Agenda page's allow-list also opens its editor (admins are its base group). */
export const AGENDA_DEPARTMENT = 'agenda';

const present = (r: AgendaEventRow): AgendaEvent => ({
  id: r.id,
  fecha: r.fecha,
  hora24h: r.hora_24h,
  descripcion: r.descripcion,
  lugar: r.lugar,
});

/** By day, then by time as the public page orders them. */
const byDayAndTime = (a: AgendaEvent, b: AgendaEvent) =>
  a.fecha.localeCompare(b.fecha) || hourSortKey(a.hora24h) - hourSortKey(b.hora24h) || a.id - b.id;

/** What the audit log keeps of an event. */
const auditDetails = (e: AgendaEvent) => ({
  fecha: e.fecha,
  hora24h: e.hora24h,
  descripcion: e.descripcion,
  lugar: e.lugar,
});

const sameEvent = (a: AgendaEventRow, b: AgendaEventRow) =>
  a.hora_24h === b.hora_24h && a.descripcion === b.descripcion && a.lugar === b.lugar;

/** An event another system keeps (the Airtable import's), with its id there. */
export interface SourceEvent extends NewAgendaEvent {
  sourceId: string;
}

/**
 * The agenda's use cases: every change to `agenda_events` is one of these, one transaction with its
 * audit row (docs/decisions/069), after which the public agenda's kept answers are forgotten. Used by
 * the editor's routes, the Airtable import and the demo data alike.
 */
export function createAgendaService(db: Kysely<Database>, clock: () => Date) {
  const repo = createAgendaRepository(db);
  const change = <T>(work: (change: Change) => Promise<T>) => runChange(db, work, { forget: [agendaTodayAnswers] });
  const auditBy = (actor: Actor) => ({ actorEmail: actor.email, departmentSlug: AGENDA_DEPARTMENT, ip: actor.ip });

  return {
    /** Events from one day to another (both included, up to 92 days), by day and time. */
    async listRange(from: string, to: string): Promise<AgendaEvent[]> {
      return (await repo.listRange(from, to)).map(present).sort(byDayAndTime);
    },

    /** Adds one event; the public agenda shows it at once. */
    create(input: NewAgendaEvent, actor: Actor): Promise<AgendaEvent> {
      const now = clock();
      return change(async ({ trx, audit }) => {
        const event = present(await createAgendaRepository(trx).create(input, now));
        await audit({
          ...auditBy(actor),
          action: 'agenda.create',
          target: `agenda:${event.id}`,
          details: auditDetails(event),
          at: now,
        });
        return event;
      });
    },

    /** Changes one event; 404 when there is none. */
    update(id: number, input: NewAgendaEvent, actor: Actor): Promise<AgendaEvent> {
      const now = clock();
      return change(async ({ trx, audit }) => {
        const tx = createAgendaRepository(trx);
        const before = await tx.findById(id);
        if (!before) throw NotFound(agendaAdminMessages.eventNotFound);
        const row = await tx.update(id, input, now);
        if (!row) throw NotFound(agendaAdminMessages.eventNotFound);
        const after = present(row);
        await audit({
          ...auditBy(actor),
          action: 'agenda.update',
          target: `agenda:${row.id}`,
          details: { before: auditDetails(present(before)), after: auditDetails(after) },
          at: now,
        });
        return after;
      });
    },

    /** Deletes one event (the audit row keeps what it said); 404 when there is none. */
    remove(id: number, actor: Actor): Promise<void> {
      const now = clock();
      return change(async ({ trx, audit }) => {
        const row = await createAgendaRepository(trx).remove(id);
        if (!row) throw NotFound(agendaAdminMessages.eventNotFound);
        await audit({
          ...auditBy(actor),
          action: 'agenda.delete',
          target: `agenda:${row.id}`,
          details: auditDetails(present(row)),
          at: now,
        });
      });
    },

    /**
     * Copies one day's events to another; those the other day already has (same time, description and
     * place) are not repeated. 404 when the first day has none.
     */
    copyDay(
      from: string,
      to: string,
      actor: Actor,
    ): Promise<{ copied: number; skipped: number; events: AgendaEvent[] }> {
      const now = clock();
      return change(async ({ trx, audit }) => {
        const tx = createAgendaRepository(trx);
        const source = await tx.readByDate(from);
        if (source.length === 0) throw NotFound(agendaAdminMessages.nothingToCopy);
        const existing = await tx.readByDate(to);
        let skipped = 0;
        for (const event of source) {
          if (existing.some((e) => sameEvent(e, event))) {
            skipped++;
            continue;
          }
          existing.push(
            await tx.create(
              { fecha: to, hora24h: event.hora_24h, descripcion: event.descripcion, lugar: event.lugar },
              now,
            ),
          );
        }
        const copied = source.length - skipped;
        await audit({
          ...auditBy(actor),
          action: 'agenda.copy',
          target: `agenda:${from}>${to}`,
          details: { from, to, copied, skipped },
          at: now,
        });
        return { copied, skipped, events: existing.map(present).sort(byDayAndTime) };
      });
    },

    /** The events another system brought before, by their ids there. */
    findBySource: (sourceIds: string[]): Promise<SourcedAgendaRow[]> => repo.findBySource(sourceIds),

    /**
     * Events another system keeps, matched by their id there: new ones added, known ones (`localId`)
     * changed, all in one transaction, each with the audit row the editor would write for it.
     */
    saveFromSource(events: (SourceEvent & { localId?: number })[], actor: Actor): Promise<void> {
      return change(async ({ trx, audit }) => {
        const tx = createAgendaRepository(trx);
        for (const event of events) {
          const now = clock();
          const before = event.localId === undefined ? undefined : await tx.findById(event.localId);
          if (before) {
            const row = await tx.update(before.id, event, now);
            if (!row) throw NotFound(agendaAdminMessages.eventNotFound);
            await audit({
              ...auditBy(actor),
              action: 'agenda.update',
              target: `agenda:${row.id}`,
              details: { before: auditDetails(present(before)), after: auditDetails(present(row)) },
              at: now,
            });
          } else {
            const row = await tx.create(event, now, event.sourceId);
            await audit({
              ...auditBy(actor),
              action: 'agenda.create',
              target: `agenda:${row.id}`,
              details: auditDetails(present(row)),
              at: now,
            });
          }
        }
      });
    },

    /** How many events there are (the demo loads its own only into an empty agenda). */
    count: (): Promise<number> => repo.count(),
  };
}
export type AgendaService = ReturnType<typeof createAgendaService>;
