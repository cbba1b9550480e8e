import type { Kysely } from 'kysely';
import { createAccessCache } from '#server/platform/cache/cache';
import type { Change } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { NotFound, Refusal, Unauthorized } from '#server/platform/http/errors';
import type { Actor, SessionUser } from '#server/platform/session/identity';
import { checkEmail } from '#server/platform/session/passwords';
import {
  ADMIN_MENU_ENTRY,
  ADMIN_SECTIONS,
  type AdminSection,
  LIST_ADMIN_SECTIONS,
  REVIEW_MENU_ENTRY,
} from '#shared/platform/access';
import { normalizeEmail } from '#shared/platform/email';
import { messages } from '#shared/platform/messages';
import { authMessages, type MenuEntry } from '#shared/platform/session';
import { createAccessRepository, type DepartmentRow } from './access.repository';
import { isReviewer } from './review-grants';

export type Department = DepartmentRow;

/** The access reads of every signed-in request, kept while the access version stands (cache.ts). */
interface AccessReads {
  findDepartment(slug: string): Promise<DepartmentRow | undefined>;
  isMember(departmentId: number, email: string): Promise<boolean>;
  listOpenDepartments(email: string, withPages: boolean): Promise<readonly DepartmentRow[]>;
}

// One per database: its prepared queries are compiled once (see preparedQuery) and its answers kept.
const readers = new WeakMap<Kysely<Database>, AccessReads>();
function readsFor(db: Kysely<Database>): AccessReads {
  let reads = readers.get(db);
  if (!reads) {
    const repo = createAccessRepository(db);
    const departments = createAccessCache<DepartmentRow | undefined>(db, { keep: (d) => d !== undefined });
    const members = createAccessCache<boolean>(db);
    const open = createAccessCache<DepartmentRow[]>(db);
    reads = {
      findDepartment: (slug) => departments(slug, () => repo.findDepartment(slug)),
      isMember: (departmentId, email) => members(`${departmentId} ${email}`, () => repo.isMember(departmentId, email)),
      listOpenDepartments: (email, withPages) =>
        open(`${withPages} ${email}`, () => repo.listOpenDepartments(email, withPages)),
    };
    readers.set(db, reads);
  }
  return reads;
}

/** The client route of a department: the staff pages live at the root, municipalities under /validation. */
export function departmentPath(d: Pick<DepartmentRow, 'slug' | 'kind'>): string {
  return d.kind === 'page' ? `/${d.slug}` : `/validation/${d.slug}`;
}

/**
 * Who may open a department (spec section 6): the e-mails on its list; for the staff pages (Resultados,
 * Notas, Agenda) also every admin, the base group. Municipalities are open to their list only.
 */
export function mayOpen(department: Pick<DepartmentRow, 'kind'>, user: SessionUser, onList: boolean): boolean {
  if (onList) return true;
  return department.kind === 'page' && user.role === 'admin';
}

/**
 * The department a signed-in user may work on, or an error: 401 for a visitor; the same 404 for a
 * department that does not exist and for one the user may not see (nothing tells them apart).
 */
export async function requireDepartmentAccess(
  db: Kysely<Database>,
  user: SessionUser | null,
  slug: string,
): Promise<Department> {
  if (!user) throw Unauthorized(authMessages.signInRequired);
  const repo = readsFor(db);
  const department = await repo.findDepartment(slug);
  if (!department) throw new Refusal('not_in_your_departments', messages.api.notFound);
  if (mayOpen(department, user, false)) return department;
  if (await repo.isMember(department.id, user.email)) return department;
  throw new Refusal('not_in_your_departments', messages.api.notFound);
}

/**
 * The back-office sections a user may use, given the slugs of the departments they may open: admins
 * every section; the Agenda and Notas lists their own section; anyone else none.
 */
export function adminSectionsFor(user: SessionUser, openSlugs: readonly string[]): AdminSection[] {
  if (user.role === 'admin') return [...ADMIN_SECTIONS];
  return LIST_ADMIN_SECTIONS.filter((section) => openSlugs.includes(section));
}

/**
 * The user allowed in one back-office section, or an error: 401 for a visitor, and for anyone else
 * without the section the same 404 as for an unknown resource.
 */
export async function requireAdminSection(
  db: Kysely<Database>,
  user: SessionUser | null,
  section: AdminSection,
): Promise<SessionUser> {
  if (!user) throw Unauthorized(authMessages.signInRequired);
  if (user.role === 'admin') return user;
  if (!(LIST_ADMIN_SECTIONS as readonly string[]).includes(section)) throw NotFound();
  const repo = readsFor(db);
  const department = await repo.findDepartment(section);
  if (department && (await repo.isMember(department.id, user.email))) return user;
  throw NotFound();
}

/**
 * The menu entries a user may open, in the spec's order, then 'Administración' when the user may use
 * some part of the back office (with those sections).
 */
export async function menuFor(db: Kysely<Database>, user: SessionUser): Promise<readonly MenuEntry[]> {
  const departments = await readsFor(db).listOpenDepartments(user.email, user.role === 'admin');
  const entries: MenuEntry[] = departments.map((d) => ({ title: d.title, path: departmentPath(d) }));
  // Admins and the reviewers they named: the photo review queue (decision 134).
  if (await isReviewer(db, user)) entries.push(REVIEW_MENU_ENTRY);
  const sections = adminSectionsFor(
    user,
    departments.map((d) => d.slug),
  );
  if (sections.length > 0) entries.push({ ...ADMIN_MENU_ENTRY, sections });
  return entries;
}

/**
 * Puts an e-mail on a department's list, with its audit row, inside a change its use case runs
 * (runChange, docs/decisions/072). False when it was already there.
 */
export async function grantDepartment(
  change: Change,
  email: string,
  slug: string,
  actor: Actor,
  now: Date,
): Promise<boolean> {
  const normalized = checkEmail(email);
  const repo = createAccessRepository(change.trx);
  const department = await repo.findDepartment(slug);
  if (!department) throw NotFound(`No existe el departamento ${slug}.`);
  const added = await repo.addMember(department.id, normalized, now);
  if (added) {
    await change.audit({
      actorEmail: actor.email,
      action: 'access.grant',
      departmentSlug: department.slug,
      target: normalized,
      ip: actor.ip,
      at: now,
    });
  }
  return added;
}

/** Takes an e-mail off a department's list, with its audit row, inside a change. False when it was not there. */
export async function revokeDepartment(
  change: Change,
  email: string,
  slug: string,
  actor: Actor,
  now: Date,
): Promise<boolean> {
  const normalized = normalizeEmail(email);
  const repo = createAccessRepository(change.trx);
  const department = await repo.findDepartment(slug);
  if (!department) throw NotFound(`No existe el departamento ${slug}.`);
  const removed = await repo.removeMember(department.id, normalized);
  if (removed) {
    await change.audit({
      actorEmail: actor.email,
      action: 'access.revoke',
      departmentSlug: department.slug,
      target: normalized,
      ip: actor.ip,
      at: now,
    });
  }
  return removed;
}

/** A department's allow-list, for operators. */
export async function listDepartmentEmails(db: Kysely<Database>, slug: string): Promise<string[]> {
  const repo = createAccessRepository(db);
  const department = await repo.findDepartment(slug);
  if (!department) throw NotFound(`No existe el departamento ${slug}.`);
  return repo.listMembers(department.id);
}
