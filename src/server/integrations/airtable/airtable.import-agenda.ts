// The agenda part of an Airtable import: Airtable's events, matched by their Airtable id.
import type { Kysely } from 'kysely';
import { createAgendaService } from '#server/features/agenda/agenda.service';
import type { Database } from '#server/platform/db/schema';
import type { AirtableRecord } from './airtable.client';
import { type ImportProgress, labelOf, type TableReport } from './airtable.import-report';
import { type AirtableAgendaRow, mapAgendaRow } from './airtable.mapping';
import { createAirtableRepository } from './airtable.repository';

/** Agenda events follow Airtable: new ones are added, changed ones updated, the rest left as they are. */
export async function importAgenda(
  run: { db: Kysely<Database>; now: () => Date; progress: ImportProgress; report: TableReport; table: string },
  agendaRows: AirtableRecord[],
): Promise<void> {
  const { db, now, progress, report } = run;
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
  const knownEvents = new Map(
    (await createAirtableRepository(db).agendaBySource(events.map((e) => e.sourceId))).map((e) => [e.source_id, e]),
  );
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
    // The agenda's own transaction: the public agenda's cache forgets the old events.
    await createAgendaService(db).transaction(async (trx) => {
      const tx = createAirtableRepository(trx);
      for (const event of eventChanges) {
        const local = knownEvents.get(event.sourceId);
        if (local) {
          await tx.updateAgenda(local.id, event, now());
          report.updated++;
        } else {
          await tx.insertAgenda(event.sourceId, event, now());
          report.created++;
        }
        progress.advance();
      }
    });
  } finally {
    progress.end();
  }
}
