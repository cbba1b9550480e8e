import type { Kysely, Selectable } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import type { DeviceReportsTable } from '#server/platform/db/schema-uploads';

export type DeviceReportRow = Selectable<DeviceReportsTable>;

export function createFieldRepository(db: Kysely<Database>) {
  return {
    /** The phone's latest report replaces its previous one. */
    async saveReport(row: DeviceReportRow): Promise<void> {
      const { device_id: _id, ...rest } = row;
      await db
        .insertInto('device_reports')
        .values(row)
        .onConflict((oc) => oc.column('device_id').doUpdateSet(rest))
        .execute();
    },

    /** Every phone's last report of these people. */
    async reportsOf(emails: readonly string[]): Promise<DeviceReportRow[]> {
      if (emails.length === 0) return [];
      return db
        .selectFrom('device_reports')
        .selectAll()
        .where('user_email', 'in', [...emails])
        .execute();
    },

    /** The municipalities and parishes, in menu order: all of them, or those on a person's lists. */
    async municipalities(listOf: string | null): Promise<{ id: number; slug: string; title: string }[]> {
      let query = db
        .selectFrom('departments')
        .select(['departments.id', 'departments.slug', 'departments.title'])
        .where('departments.kind', '=', 'municipality')
        .orderBy('departments.position');
      if (listOf !== null) {
        query = query
          .innerJoin('department_members', 'department_members.department_id', 'departments.id')
          .where('department_members.email', '=', listOf);
      }
      return query.execute();
    },
  };
}
