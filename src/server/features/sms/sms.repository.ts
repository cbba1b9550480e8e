import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import type { SmsMessagesTable } from '#server/platform/db/schema-sms';

type Db = Kysely<Database>;

export type SmsMessageRow = Selectable<SmsMessagesTable> & {
  department_slug: string | null;
  department_title: string | null;
};

/** The SMS messages kept, the numbers accounts send from, and what a message names (a record by its code). */
export function createSmsRepository(db: Db) {
  return {
    /** The account a number belongs to (normalised form), if any. */
    async findSender(
      phone: string,
    ): Promise<
      { id: number; email: string; role: 'admin' | 'staff'; disabled: number; drill_only: number } | undefined
    > {
      return db
        .selectFrom('user_phones')
        .innerJoin('users', 'users.id', 'user_phones.user_id')
        .select(['users.id', 'users.email', 'users.role', 'users.disabled', 'users.drill_only'])
        .where('user_phones.phone', '=', phone)
        .executeTakeFirst();
    },

    /** A record by its short code, with its department. */
    async findRecordByCode(
      code: string,
    ): Promise<{ id: number; nombre: string; department_id: number; slug: string; title: string } | undefined> {
      return db
        .selectFrom('records')
        .innerJoin('departments', 'departments.id', 'records.department_id')
        .select(['records.id', 'records.nombre', 'records.department_id', 'departments.slug', 'departments.title'])
        .where('records.short_code', '=', code)
        .executeTakeFirst();
    },

    /** Who voted a record, when and for whom (the answer to a different vote by SMS). */
    async findVote(
      recordId: number,
    ): Promise<{ voted_by: string | null; voted_at: string | null; vote_codes: string | null } | undefined> {
      return db
        .selectFrom('records')
        .select(['voted_by', 'voted_at', 'vote_codes'])
        .where('id', '=', recordId)
        .executeTakeFirst();
    },

    /**
     * Keeps a received message, once: undefined when one with the same `dedupe_key` is already kept
     * (the same webhook delivered again, here or to another instance).
     */
    async insertReceived(row: Insertable<SmsMessagesTable> & { dedupe_key: string }): Promise<number | undefined> {
      const inserted = await db
        .insertInto('sms_messages')
        .values(row)
        .onConflict((oc) => oc.column('dedupe_key').doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted?.id;
    },

    /** The received message kept under a dedupe key: its id, outcome and when it was taken. */
    async findReceived(dedupeKey: string): Promise<{ id: number; outcome: string; created_at: string } | undefined> {
      return db
        .selectFrom('sms_messages')
        .select(['id', 'outcome', 'created_at'])
        .where('dedupe_key', '=', dedupeKey)
        .executeTakeFirst();
    },

    /**
     * Takes over a message left 'recibido' since `takenAt` (the request applying it died): true for the one
     * request that moves its time to `now`, false when another took it first or it was finished meanwhile.
     */
    async takeOver(id: number, takenAt: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('sms_messages')
        .set({ created_at: now })
        .where('id', '=', id)
        .where('outcome', '=', 'recibido')
        .where('created_at', '=', takenAt)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async insertSent(row: Insertable<SmsMessagesTable>): Promise<number> {
      const inserted = await db.insertInto('sms_messages').values(row).returning('id').executeTakeFirstOrThrow();
      return inserted.id;
    },

    async setOutcome(
      id: number,
      outcome: {
        outcome: string;
        reason: string | null;
        user_email?: string | null;
        department_id?: number | null;
        record_id?: number | null;
      },
    ): Promise<void> {
      await db.updateTable('sms_messages').set(outcome).where('id', '=', id).execute();
    },

    /** How many messages came from this number, and from anyone, since `since` (the rate limits). */
    async countReceivedSince(phone: string, since: string): Promise<{ fromNumber: number; overall: number }> {
      const [fromNumber, overall] = await Promise.all([
        db
          .selectFrom('sms_messages')
          .select((s) => s.fn.countAll<number>().as('n'))
          .where('direction', '=', 'in')
          .where('phone', '=', phone)
          .where('created_at', '>=', since)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('sms_messages')
          .select((s) => s.fn.countAll<number>().as('n'))
          .where('direction', '=', 'in')
          .where('created_at', '>=', since)
          .executeTakeFirstOrThrow(),
      ]);
      return { fromNumber: Number(fromNumber.n), overall: Number(overall.n) };
    },

    /** A department's id by its slug (the screen's filter). */
    async findDepartmentId(slug: string): Promise<number | undefined> {
      const row = await db.selectFrom('departments').select('id').where('slug', '=', slug).executeTakeFirst();
      return row?.id;
    },

    /** The last message received (the newest 'in'), whatever came of it. */
    async lastReceived(): Promise<
      { created_at: string; phone: string; user_email: string | null; outcome: string } | undefined
    > {
      return db
        .selectFrom('sms_messages')
        .select(['created_at', 'phone', 'user_email', 'outcome'])
        .where('direction', '=', 'in')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** One page of messages, newest first. A sent message shows under its received one's department. */
    async listPage(filter: {
      departmentId?: number;
      phone?: string;
      before?: number;
      limit: number;
    }): Promise<{ rows: SmsMessageRow[]; nextCursor: number | null }> {
      let query = db
        .selectFrom('sms_messages')
        .leftJoin('departments', 'departments.id', 'sms_messages.department_id')
        .selectAll('sms_messages')
        .select(['departments.slug as department_slug', 'departments.title as department_title']);
      if (filter.departmentId !== undefined)
        query = query.where('sms_messages.department_id', '=', filter.departmentId);
      if (filter.phone !== undefined) query = query.where('sms_messages.phone', '=', filter.phone);
      if (filter.before !== undefined) query = query.where('sms_messages.id', '<', filter.before);
      const rows = await query
        .orderBy('sms_messages.id', 'desc')
        .limit(filter.limit + 1)
        .execute();
      const hasMore = rows.length > filter.limit;
      const page = hasMore ? rows.slice(0, filter.limit) : rows;
      return { rows: page, nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null };
    },
  };
}
