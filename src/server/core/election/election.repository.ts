import { type Kysely, PostgresAdapter, type Selectable } from 'kysely';
import { compiledQuery } from '#server/platform/db/compiled-query';
import { inSlices } from '#server/platform/db/in-slices';
import type { Database } from '#server/platform/db/schema';
import type {
  ElectionCloseSnapshotsTable,
  ElectionDrillItemsTable,
  ElectionHeardKeysTable,
  ElectionLateArrivalsTable,
  ElectionTable,
} from '#server/platform/db/schema-election';
import type { PhotoKind } from '#shared/platform/constants';

export type ElectionRow = Selectable<ElectionTable>;
export type LateArrivalRow = Selectable<ElectionLateArrivalsTable>;
export type DrillItemRow = Selectable<ElectionDrillItemsTable>;
export type CloseSnapshotRow = Selectable<ElectionCloseSnapshotsTable>;
export type HeardKeyRow = Selectable<ElectionHeardKeysTable>;

/** A late arrival with the names people read: the municipality's or parish's, and the record's. */
export type NamedLateArrivalRow = LateArrivalRow & { title: string | null; nombre: string | null };

/** A key heard before the close whose item has not arrived: whose, which record, where, what. */
export interface OutstandingRow {
  department_id: number;
  slug: string;
  title: string;
  user_email: string;
  record_id: number;
  nombre: string;
  kind: string;
  heard_at: string;
}

/**
 * How the day's row is read in a transaction on PostgreSQL (decision 094): shared by the writes the phase
 * governs, exclusive by a change of phase, so that the two serialize. SQLite has one writer at a time.
 */
export type ElectionLock = 'share' | 'update';

// Read by every vote and photo in its transaction (requireElectionOpen): compiled once (decision 036, 088).
const findQuery = compiledQuery((db: Kysely<Database>) => db.selectFrom('election').selectAll().where('id', '=', 1));

const findForShareQuery = compiledQuery((db: Kysely<Database>) =>
  db.selectFrom('election').selectAll().where('id', '=', 1).forShare(),
);
const findForUpdateQuery = compiledQuery((db: Kysely<Database>) =>
  db.selectFrom('election').selectAll().where('id', '=', 1).forUpdate(),
);

const endedDrillEraQuery = compiledQuery((db: Kysely<Database>, era: string) =>
  db
    .selectFrom('election_eras')
    .select('era')
    .where('era', '=', era)
    .where('drill', '=', 1)
    .where('ended_at', 'is not', null),
);

const erasedDrillKeyQuery = compiledQuery((db: Kysely<Database>, itemKey: string) =>
  db.selectFrom('election_drill_items').select('id').where('item_key', '=', itemKey).where('erased_at', 'is not', null),
);

/** The election day's rows: the phase, the keys phones reported, the items that came after the close. */
export function createElectionRepository(db: Kysely<Database>) {
  const locksRows = db.isTransaction && db.getExecutor().adapter instanceof PostgresAdapter;
  return {
    async find(): Promise<ElectionRow | undefined> {
      return (await findQuery(db))[0];
    },

    /**
     * The row in a transaction, locked on PostgreSQL (`share` or `update`): the first lock every write the
     * phase governs and every change of phase takes, so they serialize in one order (decision 094).
     */
    async findLocked(lock: ElectionLock): Promise<ElectionRow | undefined> {
      if (!locksRows) return (await findQuery(db))[0];
      return (await (lock === 'share' ? findForShareQuery : findForUpdateQuery)(db))[0];
    },

    /** Whether reading the row in this transaction can lock it: PostgreSQL only (SQLite has one writer). */
    locksRows(): boolean {
      return locksRows;
    },

    /** A change of phase has a row to lock, even on a new database (which reads as 'preparacion'). */
    async ensureRow(at: string, graceHours: number): Promise<void> {
      await db
        .insertInto('election')
        .values({
          id: 1,
          phase: 'preparacion',
          closes_at: null,
          closed_at: null,
          grace_hours: graceHours,
          changed_at: at,
          changed_by: null,
          reason: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    },

    /** A close set in advance whose time has come, stored as the close (its time stays the time set). */
    async storeScheduledClose(closedAt: string): Promise<void> {
      await db
        .updateTable('election')
        .set({ phase: 'cerrada', closed_at: closedAt })
        .where('id', '=', 1)
        .where('phase', '=', 'en_curso')
        .execute();
    },

    // --- eras (decision 094) ---

    async startEra(era: string, drill: boolean, at: string): Promise<void> {
      await db
        .insertInto('election_eras')
        .values({ era, drill: drill ? 1 : 0, started_at: at, ended_at: null })
        .execute();
    },

    async endEra(era: string, at: string): Promise<void> {
      await db.updateTable('election_eras').set({ ended_at: at }).where('era', '=', era).execute();
    },

    /** Whether this era was a drill's that has ended. */
    async isEndedDrillEra(era: string): Promise<boolean> {
      return (await endedDrillEraQuery(db, era)).length > 0;
    },

    /** Of these eras, those of drills that have ended. */
    async endedDrillEras(eras: readonly string[]): Promise<Set<string>> {
      if (eras.length === 0) return new Set();
      const rows = await db
        .selectFrom('election_eras')
        .select('era')
        .where('era', 'in', eras)
        .where('drill', '=', 1)
        .where('ended_at', 'is not', null)
        .execute();
      return new Set(rows.map((r) => r.era));
    },

    /** The row as given; its era stays unless one is given. */
    async save(row: Omit<ElectionRow, 'id' | 'era'> & { era?: string | null }): Promise<void> {
      await db
        .insertInto('election')
        .values({ id: 1, ...row })
        .onConflict((oc) => oc.column('id').doUpdateSet({ ...row }))
        .execute();
    },

    /**
     * Keeps each key with what it was heard of as (person, record, slot, content, era) and when: a key
     * heard again keeps its first hearing (and its binding).
     */
    async rememberHeardKeys(rows: readonly HeardKeyRow[]): Promise<void> {
      for (const part of inSlices(rows, 100)) {
        await db
          .insertInto('election_heard_keys')
          .values([...part])
          .onConflict((oc) => oc.column('item_key').doNothing())
          .execute();
      }
    },

    async heardKey(itemKey: string): Promise<HeardKeyRow | undefined> {
      return db.selectFrom('election_heard_keys').selectAll().where('item_key', '=', itemKey).executeTakeFirst();
    },

    async countHeardKeysOf(email: string): Promise<number> {
      const row = await db
        .selectFrom('election_heard_keys')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_email', '=', email)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Of these keys, those already heard. */
    async heardAmong(keys: readonly string[]): Promise<Set<string>> {
      const found = new Set<string>();
      for (const part of inSlices(keys)) {
        const rows = await db
          .selectFrom('election_heard_keys')
          .select('item_key')
          .where('item_key', 'in', part)
          .execute();
        for (const r of rows) found.add(r.item_key);
      }
      return found;
    },

    /** Forgets a person's heard keys but those still held (named by their phones' last reports). */
    async forgetHeardKeysOf(email: string, held: readonly string[]): Promise<void> {
      const keep = new Set(held);
      const rows = await db
        .selectFrom('election_heard_keys')
        .select('item_key')
        .where('user_email', '=', email)
        .execute();
      const gone = rows.map((r) => r.item_key).filter((k) => !keep.has(k));
      for (const part of inSlices(gone))
        await db.deleteFrom('election_heard_keys').where('item_key', 'in', part).execute();
    },

    /** Every heard key goes: at the drill's end, at the purge, once the grace after the close has run out. */
    async forgetHeardKeys(): Promise<void> {
      await db.deleteFrom('election_heard_keys').execute();
    },

    async addLateArrival(row: LateArrivalRow): Promise<void> {
      await db
        .insertInto('election_late_arrivals')
        .values(row)
        .onConflict((oc) => oc.column('item_key').doNothing())
        .execute();
    },

    async countLateArrivals(closedAt: string): Promise<number> {
      const row = await db
        .selectFrom('election_late_arrivals')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('closed_at', '=', closedAt)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** The newest late arrivals of a close, with their department's and record's names. */
    listLateArrivals(closedAt: string, limit: number): Promise<NamedLateArrivalRow[]> {
      return db
        .selectFrom('election_late_arrivals as l')
        .leftJoin('records as r', 'r.id', 'l.record_id')
        .leftJoin('departments as d', 'd.slug', 'l.department_slug')
        .selectAll('l')
        .select(['d.title', 'r.nombre'])
        .where('l.closed_at', '=', closedAt)
        .orderBy('l.arrived_at', 'desc')
        .limit(limit)
        .execute();
    },

    /**
     * 'Por llegar': the keys heard before the close whose item the server has not received (the record
     * has no vote, or that photo slot is empty, and no late arrival took that key), of every department
     * or of those on `listOf`'s lists; the first `limit` in menu order, validator and name, and how many
     * there are in all.
     */
    async outstanding(
      closedAt: string,
      listOf: string | null,
      limit: number,
    ): Promise<{ rows: OutstandingRow[]; total: number }> {
      let base = db
        .selectFrom('election_heard_keys as h')
        .innerJoin('records as r', 'r.id', 'h.record_id')
        .innerJoin('departments as d', 'd.id', 'r.department_id')
        .where('h.heard_at', '<', closedAt)
        .where('h.fingerprint', 'is not', null)
        .where('h.kind', 'is not', null)
        .where('r.status', '=', 'pendiente')
        .where((eb) =>
          eb.not(
            eb.or([
              eb.and([eb('h.kind', '=', 'vote'), eb('r.voted_at', 'is not', null)]),
              eb.and([eb('h.kind', '=', 'gobernador'), eb('r.gobernador_photo_id', 'is not', null)]),
              eb.and([eb('h.kind', '=', 'an'), eb('r.an_photo_id', 'is not', null)]),
              eb.and([eb('h.kind', '=', 'clez'), eb('r.clez_photo_id', 'is not', null)]),
            ]),
          ),
        )
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('election_late_arrivals as l')
                .select('l.item_key')
                .whereRef('l.item_key', '=', 'h.item_key'),
            ),
          ),
        );
      if (listOf !== null) {
        base = base.where('d.id', 'in', (eb) =>
          eb.selectFrom('department_members as m').select('m.department_id').where('m.email', '=', listOf),
        );
      }
      const counted = await base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
      const rows = await base
        .select([
          'd.id as department_id',
          'd.slug',
          'd.title',
          'h.user_email',
          'r.id as record_id',
          'r.nombre',
          'h.kind',
          'h.heard_at',
        ])
        .orderBy('d.position')
        .orderBy('h.user_email')
        .orderBy('r.nombre')
        .orderBy('h.item_key')
        .limit(limit)
        .execute();
      return { rows: rows.map((r) => ({ ...r, kind: r.kind ?? '' })), total: Number(counted.n) };
    },

    // --- the counts at the close ---

    async findCloseSnapshot(closedAt: string): Promise<CloseSnapshotRow | undefined> {
      return db.selectFrom('election_close_snapshots').selectAll().where('closed_at', '=', closedAt).executeTakeFirst();
    },

    /** Keeps the authority's stamp of the close's chain head (the first one stamped stays). */
    async saveCloseStamp(closedAt: string, stamp: { stamp: string; stamped_at: string }): Promise<void> {
      await db
        .updateTable('election_close_snapshots')
        .set({ ...stamp, stamp_error: null })
        .where('closed_at', '=', closedAt)
        .where('stamp', 'is', null)
        .execute();
    },

    /** Notes a try that got no stamp: when, and why. */
    async noteCloseStampTry(closedAt: string, tried: { stamp_tried_at: string; stamp_error: string }): Promise<void> {
      await db
        .updateTable('election_close_snapshots')
        .set(tried)
        .where('closed_at', '=', closedAt)
        .where('stamp', 'is', null)
        .execute();
    },

    /** Keeps the first snapshot of a close: a second one (another request at the same time) is ignored. */
    async addCloseSnapshot(row: { closed_at: string; taken_at: string; counts: string }): Promise<void> {
      await db
        .insertInto('election_close_snapshots')
        .values(row)
        .onConflict((oc) => oc.column('closed_at').doNothing())
        .execute();
    },

    // --- the drill (docs/decisions/079) ---

    /** A record's revision and last change, as they are before a drill item changes them. */
    async recordBefore(recordId: number): Promise<{ vote_revision: number; updated_at: string } | undefined> {
      return db
        .selectFrom('records')
        .select(['vote_revision', 'updated_at'])
        .where('id', '=', recordId)
        .executeTakeFirst();
    },

    async addDrillItem(row: Omit<DrillItemRow, 'id' | 'erased_at'>): Promise<void> {
      await db.insertInto('election_drill_items').values(row).execute();
    },

    /** Whether this key named a drill item that has since been erased. */
    async isErasedDrillKey(itemKey: string): Promise<boolean> {
      return (await erasedDrillKeyQuery(db, itemKey)).length > 0;
    },

    /** The drill's items not yet erased, oldest first. */
    openDrillItems(): Promise<DrillItemRow[]> {
      return db.selectFrom('election_drill_items').selectAll().where('erased_at', 'is', null).orderBy('id').execute();
    },

    /** Whether any record is voted or any photo stored: the drill starts only on a clean slate. */
    async anyVoteOrPhoto(): Promise<boolean> {
      const voted = await db.selectFrom('records').select('id').where('voted_at', 'is not', null).executeTakeFirst();
      if (voted) return true;
      const photo = await db.selectFrom('photos').select('id').executeTakeFirst();
      return photo !== undefined;
    },

    /** The stored files of these photos (original, display, thumbnail). */
    /** The links a storage published for these photos (Dropbox: a file under the person's name). */
    async photoSharedUrls(photoIds: readonly number[]): Promise<{ id: number; url: string }[]> {
      const found: { id: number; url: string }[] = [];
      for (const ids of inSlices(photoIds)) {
        const rows = await db.selectFrom('photos').select(['id', 'shared_url']).where('id', 'in', ids).execute();
        for (const r of rows) if (r.shared_url !== null) found.push({ id: r.id, url: r.shared_url });
      }
      return found;
    },

    async photoFiles(photoIds: readonly number[]): Promise<string[]> {
      const keys: string[] = [];
      for (const ids of inSlices(photoIds)) {
        const rows = await db
          .selectFrom('photos')
          .select(['original_key', 'display_key', 'thumb_key'])
          .where('id', 'in', ids)
          .execute();
        for (const r of rows) keys.push(r.original_key, r.display_key, r.thumb_key);
      }
      return keys;
    },

    /** The answers kept for the drill's keys (its records, ballots and photos go through the records kernel). */
    async deleteDrillKeys(keys: readonly string[]) {
      for (const part of inSlices(keys))
        await db.deleteFrom('idempotency_keys').where('item_key', 'in', part).execute();
    },

    async markDrillErased(at: string): Promise<void> {
      await db.updateTable('election_drill_items').set({ erased_at: at }).where('erased_at', 'is', null).execute();
    },
  };
}

export type DrillKind = 'vote' | PhotoKind;
