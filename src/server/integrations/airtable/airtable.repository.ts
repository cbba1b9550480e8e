import type { Kysely, Selectable } from 'kysely';
import { inSlices } from '#server/platform/db/in-slices';
import type { Database } from '#server/platform/db/schema';
import type { RecordsTable } from '#server/platform/db/schema-records';

/** A record that came from Airtable, as the import compares it with Airtable's row (found by source_id: never null). */
const RECORD_COLUMNS = [
  'id',
  'source_id',
  'department_id',
  'comunidad',
  'nombre',
  'ubch',
  'telefono',
  'status',
  'voted_at',
  'gobernador_photo_id',
  'an_photo_id',
  'clez_photo_id',
] as const satisfies readonly (keyof RecordsTable)[];
export type ImportedRecordRow = Pick<Selectable<RecordsTable>, (typeof RECORD_COLUMNS)[number]> & { source_id: string };

/**
 * What the Airtable import reads besides the records service: the records it brought before (by
 * `source_id`). Agenda events go through the agenda's use cases.
 */
export function createAirtableRepository(db: Kysely<Database>) {
  return {
    async recordsBySource(sourceIds: string[]): Promise<ImportedRecordRow[]> {
      const rows: ImportedRecordRow[] = [];
      for (const slice of inSlices(sourceIds)) {
        const found = await db.selectFrom('records').select(RECORD_COLUMNS).where('source_id', 'in', slice).execute();
        rows.push(...(found as ImportedRecordRow[]));
      }
      return rows;
    },
  };
}
