import { type Kysely, sql } from 'kysely';
import { awaitsRetakeSql } from '#server/core/records/record-rules';
import {
  LISTED_COLUMNS,
  type ListedRow,
  REVIEW_COLUMNS,
  type ReviewRow,
} from '#server/core/records/records.repository';
import { compiledQuery } from '#server/platform/db/compiled-query';
import type { Database } from '#server/platform/db/schema';

/* The validators' side of the records: their lists. The vote itself is written by the records kernel (core/records). */

type Db = Kysely<Database>;

/** Which conditions a list's query has: finished records too or not, a search, a cursor. */
interface ListShape {
  includeValidated: boolean;
  searching: boolean;
  afterCursor: boolean;
}

const listQuery = (shape: ListShape) =>
  compiledQuery((db: Db, departmentId: number, pattern: string, after: number, limit: number) => {
    let query = db
      .selectFrom('records')
      .select([...LISTED_COLUMNS, awaitsRetakeSql.as('awaits_retake')])
      .where('department_id', '=', departmentId)
      .where('status', '=', 'pendiente');
    if (!shape.includeValidated) query = query.where('completed', '=', 0);
    if (shape.searching) query = query.where(sql<boolean>`search_text like ${pattern} escape '\\'`);
    if (shape.afterCursor) query = query.where('id', '>', after);
    return query.orderBy('id').limit(limit);
  });

/**
 * The list's query in each of its eight shapes, compiled once (decision 111): building and compiling
 * it at each call was a twentieth of an uncached page's time (decision 138).
 */
const listQueries = new Map<string, ReturnType<typeof listQuery>>();

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
      const shape: ListShape = {
        includeValidated: options.includeValidated,
        searching: options.pattern !== undefined,
        afterCursor: options.after !== undefined,
      };
      const key = `${shape.includeValidated}:${shape.searching}:${shape.afterCursor}`;
      let query = listQueries.get(key);
      if (!query) {
        query = listQuery(shape);
        listQueries.set(key, query);
      }
      const rows = await query(db, departmentId, options.pattern ?? '', options.after ?? 0, options.limit + 1);
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
