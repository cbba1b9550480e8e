import type { Kysely, Selection } from 'kysely';
import type { Database } from '#server/platform/db/schema';

const COLUMNS = ['departments.id', 'departments.slug', 'departments.title', 'departments.kind'] as const;
type DepartmentColumns = Selection<Database, 'departments', (typeof COLUMNS)[number]>;

/** A department with its allow-list size and record progress. */
export type AdminDepartmentRow = DepartmentColumns & {
  members: number;
  total: number;
  voted: number;
  validated: number;
};

export interface MemberAccountRow {
  email: string;
  disabled: number | null;
  role: 'admin' | 'staff' | null;
}

export function createAdminDepartmentsRepository(db: Kysely<Database>) {
  const withCounts = () =>
    db
      .selectFrom('departments')
      .leftJoin('record_counts', 'record_counts.department_id', 'departments.id')
      .select((eb) => [
        ...COLUMNS,
        eb
          .selectFrom('department_members')
          .select((m) => m.fn.countAll<number>().as('n'))
          .whereRef('department_members.department_id', '=', 'departments.id')
          .as('members'),
        eb.fn.coalesce('record_counts.total', eb.lit(0)).as('total'),
        eb.fn.coalesce('record_counts.voted', eb.lit(0)).as('voted'),
        eb.fn.coalesce('record_counts.validated', eb.lit(0)).as('validated'),
      ]);

  const toRow = (
    r: DepartmentColumns & { members: number | null; total: number; voted: number; validated: number },
  ): AdminDepartmentRow => ({
    ...r,
    members: Number(r.members ?? 0),
    total: Number(r.total),
    voted: Number(r.voted),
    validated: Number(r.validated),
  });

  return {
    /** Every department in menu order, with its allow-list size and record progress. */
    async list(): Promise<AdminDepartmentRow[]> {
      const rows = await withCounts().orderBy('departments.position').execute();
      return rows.map(toRow);
    },

    async find(slug: string): Promise<AdminDepartmentRow | undefined> {
      const row = await withCounts().where('departments.slug', '=', slug).executeTakeFirst();
      return row && toRow(row);
    },

    /** The allow-list, with the account (if any) behind each e-mail. */
    async members(departmentId: number): Promise<MemberAccountRow[]> {
      return db
        .selectFrom('department_members')
        .leftJoin('users', 'users.email', 'department_members.email')
        .select(['department_members.email', 'users.disabled', 'users.role'])
        .where('department_members.department_id', '=', departmentId)
        .orderBy('department_members.email')
        .execute();
    },

    /** Adds a department at the end of the menu; its id. */
    async insert(d: {
      slug: string;
      title: string;
      kind: 'page' | 'municipality';
      createdAt: string;
    }): Promise<number> {
      const last = await db
        .selectFrom('departments')
        .select((eb) => eb.fn.max('position').as('position'))
        .executeTakeFirst();
      const row = await db
        .insertInto('departments')
        .values({
          slug: d.slug,
          title: d.title,
          kind: d.kind,
          position: Number(last?.position ?? -1) + 1,
          created_at: d.createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },

    async setTitle(departmentId: number, title: string): Promise<void> {
      await db.updateTable('departments').set({ title }).where('id', '=', departmentId).execute();
    },
  };
}
