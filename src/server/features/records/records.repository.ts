import { type Kysely, sql } from 'kysely';
import { awaitsRetakeSql } from '#server/core/records/record-rules';
import {
  LISTED_COLUMNS,
  type ListedRow,
  REVIEW_COLUMNS,
  type ReviewRow,
} from '#server/core/records/records.repository';
import type { Database } from '#server/platform/db/schema';

/* The validators' side of the records: their lists. The vote itself is written by the records kernel (core/records). */

type Db = Kysely<Database>;

export function createValidationRepository(db: Db) {
  return {
    /**
     * One page of a department's pending records, by id after `after`. Finished records are left out
     * unless asked for. `pattern` is a LIKE pattern over the stored search text (escape `\`). The review
     * columns are read, by a second query, only for the records that await a retake (`reviews`, by id).
     */
    async listPage(
      departmentId: number,
      options: { includeValidated: boolean; pattern?: string; after?: number; limit: number },
    ): Promise<{ rows: ListedRow[]; reviews: Map<number, ReviewRow>; nextCursor: number | null }> {
      // Built at each call: the shared pages are kept for a second (recordListAnswers) and a search
      // scans the department's rows, so compiling ahead saves nothing that shows (decision 036).
      let query = db
        .selectFrom('records')
        .select([...LISTED_COLUMNS, awaitsRetakeSql.as('awaits_retake')])
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
      const retaking = page.filter((row) => row.awaits_retake === 1).map((row) => row.id);
      const reviews = new Map<number, ReviewRow>();
      if (retaking.length > 0) {
        const found = await db
          .selectFrom('records')
          .select(['id', ...REVIEW_COLUMNS])
          .where('id', 'in', retaking)
          .execute();
        for (const { id, ...review } of found) reviews.set(id, review);
      }
      return { rows: page, reviews, nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null };
    },
  };
}
