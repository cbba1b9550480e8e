import { type Kysely, type Selectable, sql } from 'kysely';
import { inSlices } from '#server/platform/db/in-slices';
import type { Database } from '#server/platform/db/schema';
import type { UsersTable } from '#server/platform/db/schema-auth';
import { containsPattern } from '#server/platform/db/sql';

// totp_enabled_at says whether a second factor is on without reading its (sealed) secret.
const USER_COLUMNS = ['id', 'email', 'role', 'disabled', 'last_login_at', 'created_at', 'totp_enabled_at'] as const;
/** An account as the people screens list it (never its password hash nor its second factor's secret). */
export type AdminUserRow = Pick<Selectable<UsersTable>, (typeof USER_COLUMNS)[number]>;

export interface UserFilter {
  /** Part of the e-mail, lowercase. */
  q?: string | undefined;
  role?: 'admin' | 'staff' | undefined;
  status?: 'active' | 'disabled' | undefined;
  /** Only e-mails on this department's list. */
  departmentId?: number | undefined;
}

export interface DepartmentRef {
  id: number;
  slug: string;
  title: string;
}

export function createAdminPeopleRepository(db: Kysely<Database>) {
  const filtered = (filter: UserFilter) => {
    let query = db.selectFrom('users');
    if (filter.q) query = query.where(sql<boolean>`users.email like ${containsPattern(filter.q)} escape '\\'`);
    if (filter.role) query = query.where('users.role', '=', filter.role);
    if (filter.status) query = query.where('users.disabled', '=', filter.status === 'disabled' ? 1 : 0);
    if (filter.departmentId !== undefined) {
      const departmentId = filter.departmentId;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('department_members')
            .select('department_members.email')
            .whereRef('department_members.email', '=', 'users.email')
            .where('department_members.department_id', '=', departmentId),
        ),
      );
    }
    return query;
  };

  return {
    async listUsers(filter: UserFilter, limit: number, offset: number): Promise<AdminUserRow[]> {
      return filtered(filter)
        .select(USER_COLUMNS.map((c) => `users.${c}` as const))
        .orderBy('users.email')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    async countUsers(filter: UserFilter): Promise<number> {
      const row = await filtered(filter)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async findUser(id: number): Promise<AdminUserRow | undefined> {
      return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    /** Each e-mail's departments, in menu order. */
    async departmentsOf(emails: string[]): Promise<{ email: string; slug: string; title: string }[]> {
      if (emails.length === 0) return [];
      return db
        .selectFrom('department_members')
        .innerJoin('departments', 'departments.id', 'department_members.department_id')
        .select(['department_members.email', 'departments.slug', 'departments.title'])
        .where('department_members.email', 'in', emails)
        .orderBy('departments.position')
        .execute();
    },

    /** The accounts among these e-mails. */
    async accountsOf(emails: string[]): Promise<{ email: string; disabled: number }[]> {
      if (emails.length === 0) return [];
      const found: { email: string; disabled: number }[] = [];
      // In slices: a pasted list of a thousand e-mails stays under every bound-parameter limit.
      for (const slice of inSlices(emails)) {
        found.push(
          ...(await db.selectFrom('users').select(['email', 'disabled']).where('email', 'in', slice).execute()),
        );
      }
      return found;
    },

    async findDepartments(slugs: string[]): Promise<DepartmentRef[]> {
      if (slugs.length === 0) return [];
      return db
        .selectFrom('departments')
        .select(['id', 'slug', 'title'])
        .where('slug', 'in', slugs)
        .orderBy('position')
        .execute();
    },

    async listMembers(departmentId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('department_members')
        .select('email')
        .where('department_id', '=', departmentId)
        .execute();
      return rows.map((r) => r.email);
    },

    /** The numbers these accounts send SMS from (docs/decisions/084), by account. */
    async smsPhonesOf(userIds: number[]): Promise<{ user_id: number; phone: string }[]> {
      const rows: { user_id: number; phone: string }[] = [];
      for (const slice of inSlices(userIds)) {
        rows.push(
          ...(await db
            .selectFrom('user_phones')
            .select(['user_id', 'phone'])
            .where('user_id', 'in', slice)
            .orderBy('phone')
            .execute()),
        );
      }
      return rows;
    },

    /** Which of these numbers belong to another account than `userId`, and whose. */
    async smsPhonesOfOthers(userId: number, phones: string[]): Promise<{ phone: string; email: string }[]> {
      if (phones.length === 0) return [];
      return db
        .selectFrom('user_phones')
        .innerJoin('users', 'users.id', 'user_phones.user_id')
        .select(['user_phones.phone', 'users.email'])
        .where('user_phones.phone', 'in', phones)
        .where('user_phones.user_id', '!=', userId)
        .execute();
    },

    /** Makes the account's numbers exactly these. */
    async replaceSmsPhones(userId: number, phones: string[], at: string): Promise<void> {
      await db.deleteFrom('user_phones').where('user_id', '=', userId).execute();
      if (phones.length > 0) {
        await db
          .insertInto('user_phones')
          .values(phones.map((phone) => ({ phone, user_id: userId, created_at: at })))
          .execute();
      }
    },
  };
}
export type AdminPeopleRepository = ReturnType<typeof createAdminPeopleRepository>;
