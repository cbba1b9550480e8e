import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { Unauthorized } from '#server/platform/http/errors';
import type { SessionUser } from '#server/platform/session/identity';
import { authMessages } from '#shared/platform/session';

/*
 * Who may review the ballot photos of which municipality (decision 134): every admin all of them; anyone
 * else those an admin named them reviewer of (`review_grants`, kept as `department_members` keeps who
 * validates). Read here, beside the other access reads, so the photo files can be served to reviewers.
 */

export interface ReviewDepartment {
  id: number;
  slug: string;
  title: string;
}

/** The municipalities a person may review, in menu order (empty: none). */
export async function reviewDepartments(db: Kysely<Database>, user: SessionUser): Promise<ReviewDepartment[]> {
  let query = db
    .selectFrom('departments')
    .select(['departments.id', 'departments.slug', 'departments.title'])
    .where('departments.kind', '=', 'municipality');
  if (user.role !== 'admin') {
    query = query
      .innerJoin('review_grants', 'review_grants.department_id', 'departments.id')
      .where('review_grants.email', '=', user.email);
  }
  return query.orderBy('departments.position').execute();
}

/** Whether a person may review a municipality's photos. */
export async function mayReview(
  db: Kysely<Database>,
  user: SessionUser | null,
  departmentId: number,
): Promise<boolean> {
  if (!user) throw Unauthorized(authMessages.signInRequired);
  if (user.role === 'admin') return true;
  const row = await db
    .selectFrom('review_grants')
    .select('email')
    .where('department_id', '=', departmentId)
    .where('email', '=', user.email)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether a person reviews anything: every admin, and whoever was named reviewer of a municipality. */
export async function isReviewer(db: Kysely<Database>, user: SessionUser): Promise<boolean> {
  if (user.role === 'admin') return true;
  const row = await db.selectFrom('review_grants').select('email').where('email', '=', user.email).executeTakeFirst();
  return row !== undefined;
}
