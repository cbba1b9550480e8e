import type { Insertable, Kysely } from 'kysely';
import { inSlices } from '#server/platform/db/in-slices';
import type { Database } from '#server/platform/db/schema';
import type { FieldDevicesTable, FieldItemsTable } from '#server/platform/db/schema-uploads';
import { sessionIsLive } from '#server/platform/session/session.repository';

export type FieldDeviceRow = Insertable<FieldDevicesTable>;
export type FieldItemRow = Insertable<FieldItemsTable>;

/** One person's waiting items in one department, left out those the server has received since. */
export interface WaitingRow {
  department_id: number;
  user_email: string;
  waiting: number;
  oldest: string | null;
  /** Of those, the items whose key the server heard of before the close (0 while the day is open). */
  before_close: number | string | null;
}

/** One person's phones, added up. */
export interface DevicesRow {
  user_email: string;
  devices: number;
  last_seen_at: string | null;
  last_success_at: string | null;
  last_error_at: string | null;
  last_error: string | null;
  resent: number | string | null;
  from_before: number | string | null;
  /** The lowest epoch any of the person's phones last checked against (null: one never said). */
  checked_epoch: number | null;
  unchecked: number | string | null;
}

export function createFieldRepository(db: Kysely<Database>) {
  return {
    /**
     * Counts one report in the person's current minute (a new minute starts the count again) and
     * answers the count. On PostgreSQL the row stays locked until the transaction ends, so one person's
     * reports are written one after another (SQLite writes one transaction at a time anyway).
     */
    async countReport(trx: Kysely<Database>, email: string, now: string, windowStartedBefore: string) {
      const row = await trx
        .insertInto('field_reporters')
        .values({ user_email: email, window_started_at: now, reports_in_window: 1 })
        .onConflict((oc) =>
          oc.column('user_email').doUpdateSet((eb) => ({
            reports_in_window: eb
              .case()
              .when('field_reporters.window_started_at', '<=', windowStartedBefore)
              .then(1)
              .else(eb('field_reporters.reports_in_window', '+', 1))
              .end(),
            window_started_at: eb
              .case()
              .when('field_reporters.window_started_at', '<=', windowStartedBefore)
              .then(now)
              .else(eb.ref('field_reporters.window_started_at'))
              .end(),
          })),
        )
        .returning(['reports_in_window', 'window_started_at'])
        .executeTakeFirstOrThrow();
      return { count: row.reports_in_window, windowStartedAt: row.window_started_at };
    },

    /** The person's current count of reports, without counting one. */
    async reportsWindow(email: string) {
      return db
        .selectFrom('field_reporters')
        .select(['window_started_at', 'reports_in_window'])
        .where('user_email', '=', email)
        .executeTakeFirst();
    },

    /**
     * Writes a phone's row. An existing row is only overwritten by the session that wrote it, or once
     * that session has ended (the person signed in again on the same phone). Answers false when another
     * live session holds the row.
     */
    async saveDevice(trx: Kysely<Database>, row: FieldDeviceRow, now: string): Promise<boolean> {
      const { user_email: _email, device_id: _device, ...rest } = row;
      const result = await trx
        .insertInto('field_devices')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['user_email', 'device_id'])
            .doUpdateSet(rest)
            .where((eb) =>
              eb.or([
                eb('field_devices.session_hash', '=', eb.ref('excluded.session_hash')),
                eb.not(
                  eb.exists(
                    eb
                      .selectFrom('sessions')
                      .select(eb.lit(1).as('live'))
                      .whereRef('sessions.token_hash', '=', 'field_devices.session_hash')
                      .where(sessionIsLive(now)),
                  ),
                ),
              ]),
            ),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** A person's phones beyond the `keep` heard from most recently go, with their items. */
    async trimDevices(trx: Kysely<Database>, email: string, keep: number): Promise<void> {
      const kept = await trx
        .selectFrom('field_devices')
        .select('device_id')
        .where('user_email', '=', email)
        .orderBy('reported_at', 'desc')
        .orderBy('device_id')
        .limit(keep)
        .execute();
      if (kept.length === 0) return;
      await trx
        .deleteFrom('field_devices')
        .where('user_email', '=', email)
        .where(
          'device_id',
          'not in',
          kept.map((d) => d.device_id),
        )
        .execute();
    },

    /** The phone's waiting items are those of its last report. */
    async replaceItems(trx: Kysely<Database>, email: string, deviceId: string, items: FieldItemRow[]) {
      await trx.deleteFrom('field_items').where('user_email', '=', email).where('device_id', '=', deviceId).execute();
      // In slices: PostgreSQL and SQLite cap the parameters of one statement.
      for (let i = 0; i < items.length; i += 100) {
        await trx
          .insertInto('field_items')
          .values(items.slice(i, i + 100))
          .execute();
      }
    },

    /** Of these records, the department each is in. */
    async departmentsOfRecords(ids: readonly number[]): Promise<Map<number, number>> {
      const found = new Map<number, number>();
      for (const part of inSlices([...new Set(ids)])) {
        const rows = await db.selectFrom('records').select(['id', 'department_id']).where('id', 'in', part).execute();
        for (const r of rows) found.set(r.id, r.department_id);
      }
      return found;
    },

    /** The keys a person's phones last said they hold, all phones together. */
    async heldKeys(trx: Kysely<Database>, email: string): Promise<string[]> {
      const rows = await trx.selectFrom('field_items').select('item_key').where('user_email', '=', email).execute();
      return rows.map((r) => r.item_key);
    },

    /** The ids of these municipalities and parishes, by slug. */
    async municipalityIds(slugs: readonly string[]): Promise<Map<string, number>> {
      if (slugs.length === 0) return new Map();
      const rows = await db
        .selectFrom('departments')
        .select(['id', 'slug'])
        .where('kind', '=', 'municipality')
        .where('slug', 'in', [...slugs])
        .execute();
      return new Map(rows.map((r) => [r.slug, r.id]));
    },

    /**
     * Per department and member of its list, the items their phones say wait, without those the server
     * has received since (the record has its vote, or that photo) and those naming a record that is not
     * in that department. Summed here, by the database. After a close (`closedAt`), also how many of
     * them the server heard of before it: those it will still take (docs/decisions/078).
     */
    async waiting(departmentIds: readonly number[], closedAt: string | null = null): Promise<WaitingRow[]> {
      if (departmentIds.length === 0) return [];
      return db
        .selectFrom('field_items as i')
        .leftJoin('election_heard_keys as h', 'h.item_key', 'i.item_key')
        .innerJoin('department_members as m', (join) =>
          join.onRef('m.department_id', '=', 'i.department_id').onRef('m.email', '=', 'i.user_email'),
        )
        .innerJoin('records as r', (join) =>
          join.onRef('r.id', '=', 'i.record_id').onRef('r.department_id', '=', 'i.department_id'),
        )
        .select((eb) => [
          'i.department_id',
          'i.user_email',
          eb.fn.countAll<number>().as('waiting'),
          eb.fn.min<string | null>('i.waiting_since').as('oldest'),
          eb.fn
            .sum<number | string | null>(
              eb
                .case()
                // No close: every key's time is after '', so nothing counts.
                .when('h.heard_at', '<', closedAt ?? '')
                .then(1)
                .else(0)
                .end(),
            )
            .as('before_close'),
        ])
        .where('i.department_id', 'in', [...departmentIds])
        .where((eb) =>
          eb.not(
            eb.or([
              eb.and([eb('i.kind', '=', 'vote'), eb('r.voted_at', 'is not', null)]),
              eb.and([eb('i.kind', '=', 'gobernador'), eb('r.gobernador_photo_id', 'is not', null)]),
              eb.and([eb('i.kind', '=', 'an'), eb('r.an_photo_id', 'is not', null)]),
              eb.and([eb('i.kind', '=', 'clez'), eb('r.clez_photo_id', 'is not', null)]),
            ]),
          ),
        )
        .groupBy(['i.department_id', 'i.user_email'])
        .execute();
    },

    /** These people's phones, added up per person: last heard from, last success, last error. */
    async devicesOf(emails: readonly string[]): Promise<DevicesRow[]> {
      if (emails.length === 0) return [];
      return db
        .selectFrom('field_devices as d')
        .select((eb) => [
          'd.user_email',
          eb.fn.countAll<number>().as('devices'),
          eb.fn.max<string | null>('d.reported_at').as('last_seen_at'),
          eb.fn.max<string | null>('d.last_success_at').as('last_success_at'),
          eb.fn.max<string | null>('d.last_error_at').as('last_error_at'),
          eb.fn.sum<number>('d.resent_items').as('resent'),
          eb.fn.sum<number>('d.held_from_before').as('from_before'),
          eb.fn.min<number | null>('d.checked_epoch').as('checked_epoch'),
          eb.fn.sum<number>(eb.case().when('d.checked_epoch', 'is', null).then(1).else(0).end()).as('unchecked'),
          eb
            .selectFrom('field_devices as e')
            .select('e.last_error')
            .whereRef('e.user_email', '=', 'd.user_email')
            .where('e.last_error_at', 'is not', null)
            .orderBy('e.last_error_at', 'desc')
            .limit(1)
            .as('last_error'),
        ])
        .where('d.user_email', 'in', [...emails])
        .groupBy('d.user_email')
        .execute();
    },

    /** Who is on each of these departments' lists. */
    async members(departmentIds: readonly number[]): Promise<{ department_id: number; email: string }[]> {
      if (departmentIds.length === 0) return [];
      return db
        .selectFrom('department_members')
        .select(['department_id', 'email'])
        .where('department_id', 'in', [...departmentIds])
        .execute();
    },

    /**
     * Per department and validator, the records they voted since `since` (by the index on voted_by and
     * voted_at, migration 021): how many since `recentSince`, and the last one.
     */
    async votesBy(
      departmentIds: readonly number[],
      since: string,
      recentSince: string,
    ): Promise<{ department_id: number; voted_by: string; recent: number; last_at: string | null }[]> {
      if (departmentIds.length === 0) return [];
      const rows = await db
        .selectFrom('records')
        .select((eb) => [
          'department_id',
          'voted_by',
          eb.fn.sum<number>(eb.case().when('voted_at', '>=', recentSince).then(1).else(0).end()).as('recent'),
          eb.fn.max<string | null>('voted_at').as('last_at'),
        ])
        .where('department_id', 'in', [...departmentIds])
        .where('voted_at', '>=', since)
        .where('voted_by', 'is not', null)
        .groupBy(['department_id', 'voted_by'])
        .execute();
      return rows.map((r) => ({
        department_id: r.department_id,
        voted_by: r.voted_by as string,
        recent: Number(r.recent ?? 0),
        last_at: r.last_at,
      }));
    },

    /** How many are on each of these departments' lists. */
    async memberCounts(departmentIds: readonly number[]): Promise<Map<number, number>> {
      if (departmentIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('department_members')
        .select((eb) => ['department_id', eb.fn.countAll<number>().as('members')])
        .where('department_id', 'in', [...departmentIds])
        .groupBy('department_id')
        .execute();
      return new Map(rows.map((r) => [r.department_id, Number(r.members)]));
    },

    /** Forgets what a person's phones said waits in a department; answers how many items. */
    async clearItems(trx: Kysely<Database>, email: string, departmentId: number): Promise<number> {
      const result = await trx
        .deleteFrom('field_items')
        .where('user_email', '=', email)
        .where('department_id', '=', departmentId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
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
