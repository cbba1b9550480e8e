import type { Kysely } from 'kysely';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { isUniqueViolation } from '#server/platform/db/failures';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, Conflict, NotFound } from '#server/platform/http/errors';
import type { Actor } from '#server/platform/session/identity';
import { departmentsMessages, STAFF_PAGE_SLUGS } from '#shared/features/departments/departments';
import { createAdminDepartmentsRepository } from './departments.repository';

/*
 * The back office's changes to departments. Each runs in one transaction with its audit row. Nothing
 * is forgotten by hand afterwards: the menus, the allow-lists and the access checks are kept only while
 * the access version stands, and a write to `departments` moves it (decision 037); the results are kept
 * while the data version stands, which any write moves.
 */

/** Adds a department at the end of the menu (audited); its slug. */
export async function createDepartment(
  db: Kysely<Database>,
  body: { slug: string; title: string; kind: 'page' | 'municipality' },
  actor: Actor,
  now: Date,
): Promise<string> {
  const { slug, title, kind } = body;
  // A page is one of the app's own screens (/{slug}); any other would be a menu entry to nowhere.
  if (kind === 'page' && !(STAFF_PAGE_SLUGS as readonly string[]).includes(slug)) {
    throw BadRequest(departmentsMessages.pageUnknown(STAFF_PAGE_SLUGS));
  }
  const repo = createAdminDepartmentsRepository(db);
  const taken = async () => {
    const existing = await repo.find(slug);
    return existing ? Conflict(departmentsMessages.slugTaken(slug, existing.title)) : undefined;
  };
  const before = await taken();
  if (before) throw before;
  try {
    await db.transaction().execute(async (trx) => {
      await createAdminDepartmentsRepository(trx).insert({ slug, title, kind, createdAt: now.toISOString() });
      await writeAudit(trx, {
        actorEmail: actor.email,
        action: 'department.create',
        departmentSlug: slug,
        target: slug,
        ip: actor.ip,
        details: { title, kind },
        at: now,
      });
    });
  } catch (error) {
    // Another request added the same slug between the check and the insert.
    if (isUniqueViolation(error)) throw (await taken()) ?? error;
    throw error;
  }
  return slug;
}

/** Changes a department's title, the menu's and its page's (audited when it changed). */
export async function renameDepartment(
  db: Kysely<Database>,
  slug: string,
  title: string,
  actor: Actor,
  now: Date,
): Promise<void> {
  const d = await createAdminDepartmentsRepository(db).find(slug);
  if (!d) throw NotFound(departmentsMessages.departmentNotFound);
  if (title === d.title) return;
  await db.transaction().execute(async (trx) => {
    await createAdminDepartmentsRepository(trx).setTitle(d.id, title);
    await writeAudit(trx, {
      actorEmail: actor.email,
      action: 'department.update',
      departmentSlug: d.slug,
      target: d.slug,
      ip: actor.ip,
      details: { title: { from: d.title, to: title } },
      at: now,
    });
  });
}
