import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';

type Db = Kysely<Database>;
type StatusFilter = 'pendiente' | 'anulado' | 'todos';

/** What the CSV export writes of a record. */
export interface ExportedRecord {
  id: number;
  comunidad: string;
  nombre: string;
  ubch: string;
  telefono: string;
  department_slug: string;
  status: string;
  voted_at: string | null;
  vote_codes: string | null;
  short_code: string | null;
}

/** The CSV import and export: what the import compares with and inserts, what the export reads. */
export function createRecordsImportRepository(db: Db) {
  return {
    /** A page (by id) of a department's names and phones, for the import's duplicate check. */
    async identityPage(
      departmentId: number,
      after: number,
      limit: number,
    ): Promise<{ id: number; nombre: string; telefono: string }[]> {
      return db
        .selectFrom('records')
        .select(['id', 'nombre', 'telefono'])
        .where('department_id', '=', departmentId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /** A page (by id) of a department's records for the CSV export. */
    async exportPage(
      departmentId: number,
      status: StatusFilter,
      after: number,
      limit: number,
    ): Promise<ExportedRecord[]> {
      let query = db
        .selectFrom('records')
        .innerJoin('departments', 'departments.id', 'records.department_id')
        .select([
          'records.id',
          'records.comunidad',
          'records.nombre',
          'records.ubch',
          'records.telefono',
          'departments.slug as department_slug',
          'records.status',
          'records.voted_at',
          'records.vote_codes',
          'records.short_code',
        ])
        .where('records.department_id', '=', departmentId)
        .where('records.id', '>', after);
      if (status !== 'todos') query = query.where('records.status', '=', status);
      return query.orderBy('records.id').limit(limit).execute();
    },

    /** How many rows an export of this department and status holds (for its audit row). */
    async exportCount(departmentId: number, status: StatusFilter): Promise<number> {
      let query = db
        .selectFrom('records')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('department_id', '=', departmentId);
      if (status !== 'todos') query = query.where('status', '=', status);
      return Number((await query.executeTakeFirstOrThrow()).n);
    },
  };
}
