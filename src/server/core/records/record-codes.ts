import { type Kysely, sql } from 'kysely';
import { inSlices } from '#server/platform/db/in-slices';
import { recordCodeFor } from '#shared/platform/record-code';

/**
 * Gives these records their short codes (recordCodeFor: from the id, so never two alike), 500 a
 * statement. Used where records are made (the records kernel's bulk inserts and an import's); migration 029 has its own copy
 * for the records that existed before it.
 */
export async function writeRecordCodes(db: Kysely<unknown>, ids: readonly number[]): Promise<void> {
  for (const slice of inSlices(ids)) {
    const cases = sql.join(
      slice.map((id) => sql`when ${id} then ${recordCodeFor(id)}`),
      sql` `,
    );
    await sql`update records set short_code = case id ${cases} end where id in (${sql.join(slice)})`.execute(db);
  }
}
