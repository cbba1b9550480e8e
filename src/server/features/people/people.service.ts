import type { Kysely } from 'kysely';
import { grantDepartment, revokeDepartment } from '#server/platform/access/access.service';
import { runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, Conflict, HttpError, NotFound } from '#server/platform/http/errors';
import type { Actor, SessionUser } from '#server/platform/session/identity';
import { generateOneTimePassword } from '#server/platform/session/passwords';
import { createSessionService } from '#server/platform/session/session.service';
import {
  type AdminUser,
  BULK_MAX_ENTRIES,
  type BulkAccessResult,
  type BulkLineStatus,
  bulkEntryEmail,
  peopleMessages,
  splitBulkText,
  USERS_PAGE_SIZE,
} from '#shared/features/people/people';
import type { Role } from '#shared/platform/session';
import { createAccountsService, FIREBASE_PASSWORDS } from './accounts.service';
import {
  type AdminUserRow,
  createAdminPeopleRepository,
  type DepartmentRef,
  type UserFilter,
} from './people.repository';

type Db = Kysely<Database>;

/** What leaves the server about an account: never its password hash. */
function presentUser(
  row: AdminUserRow,
  departments: { slug: string; title: string }[],
  smsPhones: string[],
): AdminUser {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    disabled: row.disabled === 1,
    lastLoginAt: row.last_login_at,
    createdAt: row.created_at,
    secondFactor: row.totp_enabled_at !== null,
    departments,
    smsPhones,
  };
}

/**
 * `passwords`: 'local' where this server checks passwords; 'firebase' where Firebase Auth does, and
 * accounts here are only who may open what (no password is asked, generated or reset).
 */
export function createAdminPeopleService(db: Db, clock: () => Date, passwords: 'local' | 'firebase' = 'local') {
  const repo = createAdminPeopleRepository(db);
  const auth = createAccountsService(db, clock);
  const sessions = createSessionService(db, clock);

  async function present(rows: AdminUserRow[]): Promise<AdminUser[]> {
    const memberships = await repo.departmentsOf(rows.map((r) => r.email));
    const byEmail = new Map<string, { slug: string; title: string }[]>();
    for (const m of memberships) {
      const list = byEmail.get(m.email) ?? [];
      list.push({ slug: m.slug, title: m.title });
      byEmail.set(m.email, list);
    }
    const phones = await repo.smsPhonesOf(rows.map((r) => r.id));
    return rows.map((r) =>
      presentUser(
        r,
        byEmail.get(r.email) ?? [],
        phones.filter((p) => p.user_id === r.id).map((p) => p.phone),
      ),
    );
  }

  async function userOrThrow(id: number): Promise<AdminUserRow> {
    const row = await repo.findUser(id);
    if (!row) throw NotFound(peopleMessages.userNotFound);
    return row;
  }

  async function view(id: number): Promise<AdminUser> {
    const [user] = await present([await userOrThrow(id)]);
    return user as AdminUser;
  }

  /** Every slug must name a department; answers them in menu order. */
  async function departmentsOrThrow(slugs: string[]): Promise<DepartmentRef[]> {
    const unique = [...new Set(slugs)];
    const found = await repo.findDepartments(unique);
    const missing = unique.find((s) => !found.some((d) => d.slug === s));
    if (missing) throw BadRequest(peopleMessages.unknownDepartment(missing));
    return found;
  }

  /** An admin changes other accounts, never their own (no one locks themselves out by mistake). */
  function notSelf(row: AdminUserRow, actor: SessionUser): void {
    if (row.id === actor.id) throw Conflict(peopleMessages.notYourself);
  }

  return {
    view,

    async list(filter: {
      q?: string | undefined;
      role?: Role | undefined;
      status?: 'active' | 'disabled' | undefined;
      department?: string | undefined;
      page: number;
    }) {
      const where: UserFilter = { q: filter.q?.toLowerCase(), role: filter.role, status: filter.status };
      if (filter.department) {
        const [department] = await repo.findDepartments([filter.department]);
        if (!department) return { items: [], total: 0, page: filter.page, pageSize: USERS_PAGE_SIZE };
        where.departmentId = department.id;
      }
      const offset = (filter.page - 1) * USERS_PAGE_SIZE;
      const [rows, total] = await Promise.all([repo.listUsers(where, USERS_PAGE_SIZE, offset), repo.countUsers(where)]);
      return { items: await present(rows), total, page: filter.page, pageSize: USERS_PAGE_SIZE };
    },

    /**
     * Creates an account, with a one-time password unless the admin chose one, and its departments: one
     * change, so a failure half-way leaves no account and no audit row.
     */
    async create(
      input: { email: string; role: Role; password?: string | null | undefined; departments: string[] },
      actor: Actor,
    ): Promise<{ user: AdminUser; oneTimePassword: string | null }> {
      if (passwords === 'firebase' && input.password) throw BadRequest(FIREBASE_PASSWORDS);
      const departments = await departmentsOrThrow(input.departments);
      const oneTimePassword = input.password || passwords === 'firebase' ? null : generateOneTimePassword();
      const now = clock();
      let created: SessionUser;
      try {
        created = await auth.createUser(
          {
            email: input.email,
            role: input.role,
            password: input.password || oneTimePassword,
            oneTime: oneTimePassword !== null,
          },
          actor,
          async (change, user) => {
            for (const d of departments) await grantDepartment(change, user.email, d.slug, actor, now);
          },
        );
      } catch (error) {
        // Two admins creating the same e-mail at once: the second meets the unique index.
        if (!(error instanceof HttpError) && (await repo.accountsOf([input.email])).length > 0) {
          throw Conflict(peopleMessages.emailTaken(input.email));
        }
        throw error;
      }
      return { user: await view(created.id), oneTimePassword };
    },

    async update(
      id: number,
      change: { role?: Role | undefined; disabled?: boolean | undefined },
      actor: SessionUser & Actor,
    ) {
      const row = await userOrThrow(id);
      notSelf(row, actor);
      const role = change.role !== row.role ? change.role : undefined;
      const disabled = change.disabled !== (row.disabled === 1) ? change.disabled : undefined;
      if (role !== undefined || disabled !== undefined) await auth.update(row.email, { role, disabled }, actor);
      return view(id);
    },

    /** A new password (the admin's or a one-time one); every session of the account ends. */
    async resetPassword(id: number, password: string | null | undefined, actor: SessionUser & Actor) {
      if (passwords === 'firebase') throw Conflict(FIREBASE_PASSWORDS);
      const row = await userOrThrow(id);
      notSelf(row, actor);
      const oneTimePassword = password ? null : generateOneTimePassword();
      const sessionsEnded = await auth.setPassword(row.email, password || (oneTimePassword as string), actor, {
        oneTime: oneTimePassword !== null,
      });
      return { user: await view(id), oneTimePassword, sessionsEnded };
    },

    /**
     * "Cerrar sesión en todos los dispositivos" for this person (a lost or lent phone): every session
     * ends and no browser stays one of theirs. Their own card offers them the same from their menu.
     */
    async endSessions(id: number, actor: SessionUser & Actor) {
      const row = await userOrThrow(id);
      notSelf(row, actor);
      const sessionsEnded = await runChange(db, (change) =>
        sessions.endEverywhere(change, { id: row.id, email: row.email }, actor, 'user.sessions_end'),
      );
      return { user: await view(id), sessionsEnded };
    },

    /** Removes another person's second factor (a lost phone), audited; an admin never removes their own. */
    async resetSecondFactor(id: number, actor: SessionUser & Actor) {
      const row = await userOrThrow(id);
      notSelf(row, actor);
      await auth.resetSecondFactor(row.email, actor);
      return { user: await view(id) };
    },

    /** The numbers the person votes by SMS from, exactly these (accounts.setSmsPhones). */
    async setSmsPhones(id: number, phones: string[], actor: Actor) {
      const row = await userOrThrow(id);
      await auth.setSmsPhones(row.email, phones, actor);
      return view(id);
    },

    /** Makes the account's departments exactly these: grants and revokes the difference (each audited). */
    async setDepartments(id: number, slugs: string[], actor: Actor) {
      const row = await userOrThrow(id);
      const wanted = await departmentsOrThrow(slugs);
      const current = (await repo.departmentsOf([row.email])).map((d) => d.slug);
      const now = clock();
      await runChange(db, async (change) => {
        for (const d of wanted) {
          if (!current.includes(d.slug)) await grantDepartment(change, row.email, d.slug, actor, now);
        }
        for (const slug of current) {
          if (!wanted.some((d) => d.slug === slug)) await revokeDepartment(change, row.email, slug, actor, now);
        }
      });
      return view(id);
    },

    /**
     * Grants or revokes one department for a pasted list of e-mails, in one transaction, and reports
     * each entry: what happened, or why it was skipped. With `dryRun`, only the report.
     */
    async bulkAccess(
      input: { text: string; slug: string; action: 'grant' | 'revoke'; dryRun: boolean },
      actor: Actor,
    ): Promise<BulkAccessResult> {
      const entries = splitBulkText(input.text);
      if (entries.length === 0) throw BadRequest(peopleMessages.bulkEmpty);
      if (entries.length > BULK_MAX_ENTRIES) throw BadRequest(peopleMessages.bulkTooMany(BULK_MAX_ENTRIES));
      const [department] = await departmentsOrThrow([input.slug]);
      if (!department) throw BadRequest(peopleMessages.unknownDepartment(input.slug));

      const members = new Set(await repo.listMembers(department.id));
      const emails = entries.map((e) => bulkEntryEmail(e.text));
      const valid = [...new Set(emails.filter((e): e is string => e !== null))];
      const accounts = new Set((await repo.accountsOf(valid)).map((a) => a.email));
      const firstLine = new Map<string, number>();
      const grant = input.action === 'grant';

      const lines = entries.map((entry, i) => {
        const email = emails[i] ?? null;
        let status: BulkLineStatus;
        let message: string;
        if (!email) {
          status = 'invalid';
          message = 'No es un correo válido.';
        } else if (firstLine.has(email)) {
          status = 'duplicate';
          message = `Repetido: ya aparece en la línea ${firstLine.get(email)}.`;
        } else {
          firstLine.set(email, entry.line);
          const onList = members.has(email);
          if (grant) {
            status = onList ? 'already' : 'added';
            message = onList ? 'Ya tenía acceso.' : input.dryRun ? 'Recibirá acceso.' : 'Acceso concedido.';
          } else {
            status = onList ? 'removed' : 'absent';
            message = onList ? (input.dryRun ? 'Perderá el acceso.' : 'Acceso retirado.') : 'No estaba en la lista.';
          }
          if (!accounts.has(email) && status !== 'absent') message += ' Todavía no tiene cuenta.';
        }
        return {
          line: entry.line,
          text: entry.text,
          email,
          status,
          message,
          hasAccount: email ? accounts.has(email) : null,
        };
      });

      const changes = lines.filter((l) => l.status === 'added' || l.status === 'removed');
      if (!input.dryRun && changes.length > 0) {
        const now = clock();
        await runChange(db, async (change) => {
          for (const l of changes) {
            const email = l.email as string;
            if (grant) await grantDepartment(change, email, department.slug, actor, now);
            else await revokeDepartment(change, email, department.slug, actor, now);
          }
        });
      }
      const count = (...statuses: BulkLineStatus[]) => lines.filter((l) => statuses.includes(l.status)).length;
      return {
        slug: department.slug,
        title: department.title,
        action: input.action,
        dryRun: input.dryRun,
        lines,
        summary: {
          changed: count('added', 'removed'),
          unchanged: count('already', 'absent'),
          invalid: count('invalid'),
          duplicate: count('duplicate'),
        },
      };
    },
  };
}
export type AdminPeopleService = ReturnType<typeof createAdminPeopleService>;
