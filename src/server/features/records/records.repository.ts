import { type Kysely, sql } from 'kysely';
import { RECORD_COLUMNS, type RecordRow } from '#server/core/records/records.repository';
import type { Database } from '#server/platform/db/schema';

/* The validators' side of the records: their lists. The vote itself is written by the records kernel (core/records). */

type Db = Kysely<Database>;

export function createValidationRepository(db: Db) {
  return {
    /**
     * One page of a department's pending records, by id after `after`. Finished records are left out
     * unless asked for. `pattern` is a LIKE pattern over the stored search text (escape `\`).
     */
    async listPage(
      departmentId: number,
      options: { includeValidated: boolean; pattern?: string; after?: number; limit: number },
    ): Promise<{ rows: RecordRow[]; nextCursor: number | null }> {
      // Built at each call: the shared pages are kept for a second (recordListAnswers) and a search
      // scans the department's rows, so compiling ahead saves nothing that shows (decision 036).
      let query = db
        .selectFrom('records')
        .select(RECORD_COLUMNS)
        .where('department_id', '=', departmentId)
        .where('status', '=', 'pendiente');
      if (!options.includeValidated) query = query.where('completed', '=', 0);
      if (options.pattern !== undefined)
        query = query.where(sql<boolean>`search_text like ${options.pattern} escape '\\'`);
      if (options.after !== undefined) query = query.where('id', '>', options.after);
      const rows = await query
        .orderBy('id')
        .limit(options.limit + 1)
        .execute();
      const hasMore = rows.length > options.limit;
      const page = hasMore ? rows.slice(0, options.limit) : rows;
      return { rows: page, nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null };
    },
  };
}
