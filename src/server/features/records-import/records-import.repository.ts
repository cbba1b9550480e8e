import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { writeRecordCodes } from '#server/platform/db/record-codes';
import { recordSearchText } from '#server/platform/records/records.search';

type Db = Kysely<Database>;
type StatusFilter = 'pendiente' | 'anulado' | 'todos';

/** A new pending record of an import. */
export interface ImportedRecord {
  departmentId: number;
  comunidad: string;
  nombre: string;
  ubch: string;
  telefono: string;
}

const IMPORT_COLUMNS = [
  'department_id',
  'comunidad',
  'nombre',
  'ubch',
  'telefono',
  'status',
  'search_text',
  'completed',
  'created_at',
  'updated_at',
] as const;

/** The INSERT of `rows` records, written once per dialect and size (the statement cache then reuses it). */
const insertStatements = new Map<string, string>();
function insertStatement(postgres: boolean, rows: number): string {
  const key = `${postgres}:${rows}`;
  let text = insertStatements.get(key);
  if (!text) {
    const width = IMPORT_COLUMNS.length;
    const tuples = Array.from(
      { length: rows },
      (_, r) => `(${Array.from({ length: width }, (_, c) => (postgres ? `$${r * width + c + 1}` : '?')).join(', ')})`,
    );
    text = `insert into records (${IMPORT_COLUMNS.join(', ')}) values ${tuples.join(', ')} returning id`;
    if (insertStatements.size > 20) insertStatements.clear();
    insertStatements.set(key, text);
  }
  return text;
}

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

    /**
     * Inserts an import's records as pending, a few hundred per statement, without building a query
     * object per row: an import of 100,000 rows would otherwise spend most of its time and memory there.
     * The caller moves the departments' counts in the same transaction.
     */
    async insertImported(rows: ImportedRecord[], now: Date): Promise<void> {
      if (rows.length === 0) return;
      const postgres = db.getExecutor().adapter.constructor.name.startsWith('Postgres');
      const at = now.toISOString();
      const values: unknown[] = [];
      for (const r of rows) {
        values.push(
          r.departmentId,
          r.comunidad,
          r.nombre,
          r.ubch,
          r.telefono,
          'pendiente',
          recordSearchText(r),
          0,
          at,
          at,
        );
      }
      const inserted = await db.executeQuery<{ id: number }>(
        CompiledQuery.raw(insertStatement(postgres, rows.length), values),
      );
      // The short codes come from the ids (decision 084), so they are written once the ids are known.
      await writeRecordCodes(
        db as Kysely<unknown>,
        inserted.rows.map((r) => Number(r.id)),
      );
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
