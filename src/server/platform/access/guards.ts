import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { NotFound, Unauthorized } from '#server/platform/http/errors';
import type { SessionUser } from '#server/platform/session/identity';
import { authMessages } from '#shared/platform/session';
import { createAccessRepository, type DepartmentRow } from './access.repository';
import { listDepartmentEmails, requireDepartmentAccess } from './access.service';

/*
 * Who may do what, for every route: the guards. A route calls one before anything else (or in an
 * onRequest hook, for a whole plugin); app.ts builds those that read the database once
 * (createAccessGuards) and hands them to the plugins. Contract shared by all features:
 * - `request.user` is set (or null) by the session plugin before any handler runs;
 * - `requireUser(request)` returns the user or throws 401;
 * - `requireAdmin(request)` returns an admin; a visitor gets 401 and any other user the same 404 as an
 *   unknown resource;
 * - a department someone may not open answers the same 404 as one that does not exist.
 */

export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw Unauthorized(authMessages.signInRequired);
  return request.user;
}

export function requireAdmin(request: FastifyRequest): SessionUser {
  const user = requireUser(request);
  if (user.role !== 'admin') throw NotFound();
  return user;
}

/** The guards that read the database, and the access reads routes answer with, built once per app. */
export function createAccessGuards(db: Kysely<Database>) {
  const access = createAccessRepository(db);
  return {
    /** The department a signed-in user may work on (access.service.ts: requireDepartmentAccess). */
    department: (user: SessionUser | null, slug: string) => requireDepartmentAccess(db, user, slug),

    /** The municipality whose field view a person may see: admins every one, others those on their lists. */
    async fieldDepartment(user: SessionUser, slug: string): Promise<DepartmentRow> {
      const department = await access.findDepartment(slug);
      if (department?.kind !== 'municipality') throw NotFound();
      if (user.role !== 'admin' && !(await access.isMember(department.id, user.email))) throw NotFound();
      return department;
    },

    /** The e-mails on a department's list. */
    members: (departmentId: number) => access.listMembers(departmentId),

    /** A department with the e-mails of its list (Departamentos' access panel), or undefined. */
    async departmentWithEmails(slug: string): Promise<(DepartmentRow & { emails: string[] }) | undefined> {
      const d = await access.findDepartment(slug);
      return d ? { ...d, emails: await listDepartmentEmails(db, slug) } : undefined;
    },

    /** Every department with the e-mails of its list. */
    departmentsWithEmails: () => access.listDepartmentsWithMembers(),
  };
}
export type AccessGuards = ReturnType<typeof createAccessGuards>;

/**
 * The person a plugin's onRequest guard already let through (requireAdmin on /api/admin, a section's
 * list): its handlers name them without checking again. Reached without that guard, it is a bug (500).
 */
export function guardedUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new Error('a route that needs a guard was reached without one');
  return request.user;
}
