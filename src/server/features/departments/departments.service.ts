import type { Kysely } from 'kysely';
import { grantDepartment, revokeDepartment } from '#server/platform/access/access.service';
import { runChange } from '#server/platform/change/change';
import { isUniqueViolation } from '#server/platform/db/failures';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, Conflict, NotFound } from '#server/platform/http/errors';
import type { Actor } from '#server/platform/session/identity';
import { departmentsMessages, STAFF_PAGE_SLUGS } from '#shared/features/departments/departments';
import { createAdminDepartmentsRepository } from './departments.repository';

/*
 * The departments' use cases: the back office's, the command line's and the demo's changes to
 * departments and their allow-lists. Each runs through the change helper, one transaction with its
 * audit row (docs/decisions/069 and 072). Nothing is named to forget: the menus, the allow-lists and
 * the access checks are kept only while the access version stands, and a write to `departments` or
 * `department_members` moves it (decision 037); the results are kept while the data version stands,
 * which any write moves.
 */
export function createDepartmentsService(db: Kysely<Database>, clock: () => Date) {
  const repo = createAdminDepartmentsRepository(db);

  return {
    /** Every department in menu order, with its list's size and its progress (Departamentos). */
    list: () => repo.list(),

    /** One department with the e-mails of its list and the account of each, or 404. */
    async detail(slug: string) {
      const department = await repo.find(slug);
      if (!department) throw NotFound(departmentsMessages.departmentNotFound);
      return { department, members: await repo.members(department.id) };
    },

    /** Adds a department at the end of the menu (audited); its slug. */
    async create(body: { slug: string; title: string; kind: 'page' | 'municipality' }, actor: Actor): Promise<string> {
      const { slug, title, kind } = body;
      // A page is one of the app's own screens (/{slug}); any other would be a menu entry to nowhere.
      if (kind === 'page' && !(STAFF_PAGE_SLUGS as readonly string[]).includes(slug)) {
        throw BadRequest(departmentsMessages.pageUnknown(STAFF_PAGE_SLUGS));
      }
      const taken = async () => {
        const existing = await repo.find(slug);
        return existing ? Conflict(departmentsMessages.slugTaken(slug, existing.title)) : undefined;
      };
      const before = await taken();
      if (before) throw before;
      const now = clock();
      try {
        await runChange(db, async ({ trx, audit }) => {
          await createAdminDepartmentsRepository(trx).insert({ slug, title, kind, createdAt: now.toISOString() });
          await audit({
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
    },

    /** Changes a department's title, the menu's and its page's (audited when it changed). */
    async rename(slug: string, title: string, actor: Actor): Promise<void> {
      const d = await repo.find(slug);
      if (!d) throw NotFound(departmentsMessages.departmentNotFound);
      if (title === d.title) return;
      const now = clock();
      await runChange(db, async ({ trx, audit }) => {
        await createAdminDepartmentsRepository(trx).setTitle(d.id, title);
        await audit({
          actorEmail: actor.email,
          action: 'department.update',
          departmentSlug: d.slug,
          target: d.slug,
          ip: actor.ip,
          details: { title: { from: d.title, to: title } },
          at: now,
        });
      });
    },

    /** Puts an e-mail on a department's list (audited). False when it was already there. */
    grantAccess(email: string, slug: string, actor: Actor): Promise<boolean> {
      const now = clock();
      return runChange(db, (change) => grantDepartment(change, email, slug, actor, now));
    },

    /** Takes an e-mail off a department's list (audited). False when it was not there. */
    revokeAccess(email: string, slug: string, actor: Actor): Promise<boolean> {
      const now = clock();
      return runChange(db, (change) => revokeDepartment(change, email, slug, actor, now));
    },
  };
}
export type DepartmentsService = ReturnType<typeof createDepartmentsService>;
