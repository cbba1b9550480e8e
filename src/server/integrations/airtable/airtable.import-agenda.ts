// The agenda part of an Airtable import: Airtable's events, matched by their Airtable id.
import type { Kysely } from 'kysely';
import { createAgendaService } from '#server/features/agenda/agenda.service';
import type { Database } from '#server/platform/db/schema';
import type { Actor } from '#server/platform/session/identity';
import type { AirtableRecord } from './airtable.client';
import { type ImportProgress, labelOf, type TableReport } from './airtable.import-report';
import { type AirtableAgendaRow, mapAgendaRow } from './airtable.mapping';

/**
 * Agenda events follow Airtable: new ones are added, changed ones updated, the rest left as they are.
 * Through the agenda's own use case: one transaction, one audit row per event changed, as the editor writes.
 */
export async function importAgenda(
  run: {
    db: Kysely<Database>;
    now: () => Date;
    actor: Actor;
    progress: ImportProgress;
    report: TableReport;
    table: string;
  },
  agendaRows: AirtableRecord[],
): Promise<void> {
  const { progress, report } = run;
  const agenda = createAgendaService(run.db, run.now);
  const events: AirtableAgendaRow[] = [];
  const seenEvents = new Set<string>();
  for (const record of agendaRows) {
    if (seenEvents.has(record.id)) continue;
    seenEvents.add(record.id);
    const mapped = mapAgendaRow(record);
    if (mapped.ok) events.push(mapped.row);
    else {
      report.skipped.push({
        table: run.table,
        airtableId: record.id,
        label: labelOf(record.fields, 'descripcion'),
        reason: mapped.reason,
      });
    }
  }
  const knownEvents = new Map((await agenda.findBySource(events.map((e) => e.sourceId))).map((e) => [e.source_id, e]));
  const eventChanges = events.filter((e) => {
    const local = knownEvents.get(e.sourceId);
    return (
      !local ||
      local.fecha !== e.fecha ||
      local.hora_24h !== e.hora24h ||
      local.descripcion !== e.descripcion ||
      local.lugar !== e.lugar
    );
  });
  report.unchanged = events.length - eventChanges.length;
  if (eventChanges.length === 0) return;
  progress.phase('Agenda', eventChanges.length);
  try {
    await agenda.saveFromSource(
      eventChanges.map((event) => ({ ...event, localId: knownEvents.get(event.sourceId)?.id })),
      run.actor,
    );
    for (const event of eventChanges) {
      if (knownEvents.has(event.sourceId)) report.updated++;
      else report.created++;
    }
    progress.advance(eventChanges.length);
  } finally {
    progress.end();
  }
}
