import type { Kysely, Selection } from 'kysely';
import { preparedQuery } from '#server/platform/db/compiled-query';
import type { Database } from '#server/platform/db/schema';

export const DEPARTMENT_COLUMNS = [
  'departments.id',
  'departments.slug',
  'departments.title',
  'departments.kind',
] as const;
export type DepartmentRow = Selection<Database, 'departments', (typeof DEPARTMENT_COLUMNS)[number]>;

export function createAccessRepository(db: Kysely<Database>) {
  const openDepartments = (withPages: boolean) =>
    preparedQuery(db, (email: string) =>
      db
        .selectFrom('departments')
        .leftJoin('department_members', (join) =>
          join
            .onRef('department_members.department_id', '=', 'departments.id')
            .on('department_members.email', '=', email),
        )
        .select(DEPARTMENT_COLUMNS)
        .where((eb) =>
          withPages
            ? eb.or([eb('department_members.email', 'is not', null), eb('departments.kind', '=', 'page')])
            : eb('department_members.email', 'is not', null),
        )
        .orderBy('departments.position'),
    );
  const openDepartmentsWithPages = openDepartments(true);
  const openDepartmentsOnList = openDepartments(false);
  const departmentBySlug = preparedQuery(db, (slug: string) =>
    db.selectFrom('departments').select(DEPARTMENT_COLUMNS).where('slug', '=', slug),
  );
  const membership = preparedQuery(db, (departmentId: number, email: string) =>
    db
      .selectFrom('department_members')
      .select('email')
      .where('department_id', '=', departmentId)
      .where('email', '=', email),
  );

  return {
    async findDepartment(slug: string): Promise<DepartmentRow | undefined> {
      const [row] = await departmentBySlug(slug);
      return row;
    },

    async isMember(departmentId: number, email: string): Promise<boolean> {
      const rows = await membership(departmentId, email);
      return rows.length > 0;
    },

    /**
     * The departments an e-mail may open, in menu order: those whose list holds the e-mail, plus the staff
     * pages when `withPages` (admins are their base group). One query: it runs on every session check.
     */
    async listOpenDepartments(email: string, withPages: boolean): Promise<DepartmentRow[]> {
      return withPages ? openDepartmentsWithPages(email) : openDepartmentsOnList(email);
    },

    async listDepartmentsWithMembers(): Promise<(DepartmentRow & { emails: string[] })[]> {
      const [departments, members] = await Promise.all([
        db.selectFrom('departments').select(DEPARTMENT_COLUMNS).orderBy('position').execute(),
        db.selectFrom('department_members').select(['department_id', 'email']).orderBy('email').execute(),
      ]);
      const byDepartment = new Map<number, string[]>();
      for (const m of members) {
        const list = byDepartment.get(m.department_id) ?? [];
        list.push(m.email);
        byDepartment.set(m.department_id, list);
      }
      return departments.map((d) => ({ ...d, emails: byDepartment.get(d.id) ?? [] }));
    },

    async listMembers(departmentId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('department_members')
        .select('email')
        .where('department_id', '=', departmentId)
        .orderBy('email')
        .execute();
      return rows.map((r) => r.email);
    },

    /** True when the e-mail was added, false when it was already on the list. */
    async addMember(departmentId: number, email: string, now: Date): Promise<boolean> {
      const result = await db
        .insertInto('department_members')
        .values({ department_id: departmentId, email, created_at: now.toISOString() })
        .onConflict((oc) => oc.columns(['department_id', 'email']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** True when the e-mail was on the list. */
    async removeMember(departmentId: number, email: string): Promise<boolean> {
      const result = await db
        .deleteFrom('department_members')
        .where('department_id', '=', departmentId)
        .where('email', '=', email)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
export type AccessRepository = ReturnType<typeof createAccessRepository>;
