import type { Kysely, Selectable } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import type {
  AirtableOutboxField,
  AirtableOutboxState,
  AirtableOutboxTable,
} from '#server/platform/db/schema-airtable';
import { AIRTABLE_SOURCE_PREFIX } from './airtable.mapping';

export type OutboxRow = Selectable<AirtableOutboxTable>;

export interface OutboxChange {
  recordId: number;
  field: AirtableOutboxField;
  value: string;
  /** What changed, once (`vote:<record id>`, `photo:<photo id>`): queuing it again does nothing. */
  changeKey: string;
  at: string;
}

/** The write-back outbox: changes for Airtable wait here until Airtable acknowledged them. */
export function createAirtableOutboxRepository(db: Kysely<Database>) {
  return {
    /**
     * Queues a change of a record that came from Airtable (others are not Airtable's business: nothing
     * is queued). Meant to run inside the change's own transaction. An older change of the same field
     * still waiting is superseded: only the newest value has to reach Airtable.
     */
    async queue(change: OutboxChange): Promise<boolean> {
      const record = await db
        .selectFrom('records')
        .select('source_id')
        .where('id', '=', change.recordId)
        .executeTakeFirst();
      const sourceId = record?.source_id;
      if (!sourceId?.startsWith(AIRTABLE_SOURCE_PREFIX)) return false;
      await db
        .updateTable('airtable_outbox')
        .set({ state: 'superseded', lease_until: null, lease_owner: null })
        .where('record_id', '=', change.recordId)
        .where('field', '=', change.field)
        .where('state', '=', 'pending')
        .where('change_key', '!=', change.changeKey)
        .execute();
      const inserted = await db
        .insertInto('airtable_outbox')
        .values({
          record_id: change.recordId,
          airtable_id: sourceId.slice(AIRTABLE_SOURCE_PREFIX.length),
          field: change.field,
          value: change.value,
          change_key: change.changeKey,
          state: 'pending',
          attempts: 0,
          next_attempt_at: change.at,
          created_at: change.at,
        })
        .onConflict((oc) => oc.column('change_key').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /**
     * Takes up to `limit` pending changes that are due (all pending ones with `ignoreBackoff`) and not
     * held by another worker, and holds them until `leaseUntil`. The conditional UPDATE decides: of two
     * workers asking at once, each row goes to one.
     */
    async claim(options: {
      owner: string;
      now: string;
      leaseUntil: string;
      limit: number;
      ignoreBackoff?: boolean;
    }): Promise<OutboxRow[]> {
      let query = db
        .selectFrom('airtable_outbox')
        .select('id')
        .where('state', '=', 'pending')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', options.now)]));
      if (!options.ignoreBackoff) query = query.where('next_attempt_at', '<=', options.now);
      const ids = (await query.orderBy('id').limit(options.limit).execute()).map((r) => r.id);
      if (ids.length === 0) return [];
      const rows = await db
        .updateTable('airtable_outbox')
        .set({ lease_until: options.leaseUntil, lease_owner: options.owner })
        .where('id', 'in', ids)
        .where('state', '=', 'pending')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', options.now)]))
        .returningAll()
        .execute();
      return rows.sort((a, b) => a.id - b.id);
    },

    /** Airtable acknowledged these changes: they never leave again. */
    async markSent(ids: number[], owner: string, at: string): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('airtable_outbox')
        .set({ state: 'sent', sent_at: at, lease_until: null, lease_owner: null, last_error: null })
        .where('id', 'in', ids)
        .where('lease_owner', '=', owner)
        .execute();
    },

    /** Not delivered this time: one more attempt counted, the next one not before `nextAttemptAt`. */
    async reschedule(id: number, owner: string, attempts: number, nextAttemptAt: string, error: string): Promise<void> {
      await db
        .updateTable('airtable_outbox')
        .set({
          attempts,
          next_attempt_at: nextAttemptAt,
          last_error: error.slice(0, 500),
          lease_until: null,
          lease_owner: null,
        })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .execute();
    },

    /** Given back untried (the worker is stopping): due again at once for whoever comes next. */
    async release(ids: number[], owner: string): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('airtable_outbox')
        .set({ lease_until: null, lease_owner: null })
        .where('id', 'in', ids)
        .where('lease_owner', '=', owner)
        .execute();
    },

    /** Airtable refused these for good (the record is gone, the field cannot take the value). */
    async markFailed(ids: number[], owner: string, error: string): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('airtable_outbox')
        .set({ state: 'failed', last_error: error.slice(0, 500), lease_until: null, lease_owner: null })
        .where('id', 'in', ids)
        .where('lease_owner', '=', owner)
        .execute();
    },

    async countByState(): Promise<Record<AirtableOutboxState, number>> {
      const rows = await db
        .selectFrom('airtable_outbox')
        .select((eb) => ['state', eb.fn.countAll<number>().as('n')])
        .groupBy('state')
        .execute();
      const counts: Record<AirtableOutboxState, number> = { pending: 0, sent: 0, superseded: 0, failed: 0 };
      for (const r of rows) counts[r.state] = Number(r.n);
      return counts;
    },

    /** Changes in one state, oldest first (the operator's view of what waits or failed). */
    async list(state: AirtableOutboxState, limit = 50): Promise<OutboxRow[]> {
      return db
        .selectFrom('airtable_outbox')
        .selectAll()
        .where('state', '=', state)
        .orderBy('id')
        .limit(limit)
        .execute();
    },
  };
}
export type AirtableOutboxRepository = ReturnType<typeof createAirtableOutboxRepository>;
