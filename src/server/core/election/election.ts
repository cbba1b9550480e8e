import type { Kysely } from 'kysely';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { readChainHead } from '#server/platform/audit/audit.repository';
import type { Database } from '#server/platform/db/schema';
import { Refusal } from '#server/platform/http/errors';
import { requestTimestamp, TimestampError } from '#server/platform/timestamp/timestamp';
import {
  DEFAULT_GRACE_HOURS,
  type ElectionPhase,
  type ElectionWrite,
  electionMessages,
  electionPhaseSchema,
} from '#shared/features/election/election';
import {
  createElectionRepository,
  type DrillKind,
  type ElectionLock,
  type ElectionRow,
  type HeardKeyRow,
} from './election.repository';

const HOUR_MS = 3_600_000;

/** The day as it stands at an instant: the stored phase, with a close set in advance applied. */
export interface ElectionNow {
  phase: ElectionPhase;
  /** The close set in advance, while it is set. */
  closesAt: string | null;
  /** When the day closed, while it is closed. */
  closedAt: string | null;
  graceHours: number;
  row: ElectionRow | undefined;
}

/**
 * What the stored row means at `now`: no row is 'preparacion' (a new database); an 'en_curso' whose
 * close set in advance has come is closed at that time, whether or not anyone has looked since.
 */
export function electionAt(row: ElectionRow | undefined, now: Date): ElectionNow {
  const graceHours = row?.grace_hours ?? DEFAULT_GRACE_HOURS;
  if (!row) return { phase: 'preparacion', closesAt: null, closedAt: null, graceHours, row };
  const phase = electionPhaseSchema.parse(row.phase);
  if (phase === 'en_curso' && row.closes_at && row.closes_at <= now.toISOString()) {
    return { phase: 'cerrada', closesAt: row.closes_at, closedAt: row.closes_at, graceHours, row };
  }
  return { phase, closesAt: row.closes_at, closedAt: phase === 'cerrada' ? row.closed_at : null, graceHours, row };
}

/** The day at `now`, read through `db` (a transaction, inside a change). */
export async function readElection(db: Kysely<Database>, now: Date): Promise<ElectionNow> {
  return electionAt(await createElectionRepository(db).find(), now);
}

/**
 * The day at `now` in a transaction, its row locked first (decision 094): `share` by each write the phase
 * governs, `update` by each change of phase, so that a change of phase waits for the writes under way and
 * the writes after it see it. A close set in advance whose time has come is stored as the close here,
 * under the exclusive lock (taken instead of the shared one), with its counts: every write after it finds
 * the day closed whatever its own clock says, and every write before it is in the counts.
 */
export async function lockElection(db: Kysely<Database>, now: Date, lock: ElectionLock): Promise<ElectionNow> {
  const repo = createElectionRepository(db);
  const due = (row: ElectionRow | undefined) =>
    row?.phase === 'en_curso' && row.closes_at !== null && row.closes_at <= now.toISOString();
  // The plain read decides the lock only where a close set in advance may have come (never once stored).
  let mode = lock;
  if (mode === 'share') {
    const plain = await repo.find();
    if (due(plain)) {
      if (!db.isTransaction) return db.transaction().execute((trx) => lockElection(trx, now, 'update'));
      mode = 'update';
    } else if (!repo.locksRows()) {
      // SQLite: the write transaction already excludes every other writer, so the plain read is the row.
      return electionAt(plain, now);
    }
  }
  const row = await repo.findLocked(mode);
  if (mode === 'update' && row && due(row) && row.closes_at) {
    await repo.storeScheduledClose(row.closes_at);
    await ensureCloseSnapshot(db, row.closes_at, now);
    return electionAt({ ...row, phase: 'cerrada', closed_at: row.closes_at }, now);
  }
  return electionAt(row, now);
}

/**
 * A close set in advance whose time has come, stored with its counts, in a transaction of its own when
 * `db` is not one (the pages that read the close).
 */
export async function settleClose(db: Kysely<Database>, now: Date): Promise<ElectionNow> {
  const settle = async (trx: Kysely<Database>) => {
    const day = await lockElection(trx, now, 'share');
    if (day.closedAt) await ensureCloseSnapshot(trx, day.closedAt, now);
    return day;
  };
  return db.isTransaction ? settle(db) : db.transaction().execute(settle);
}

/** The day's era as phones are told it (decision 094): null until the first drill. */
export async function currentEra(db: Kysely<Database>, now: Date): Promise<{ id: string; drill: boolean } | null> {
  const day = await readElection(db, now);
  return day.row?.era ? { id: day.row.era, drill: day.phase === 'simulacro' } : null;
}

/** What a write that passed the check is. */
export interface WriteAllowance {
  /** Made during the drill. */
  drill: boolean;
  /** Accepted after the close because a phone reported its key before it (stored as a late arrival). */
  late: boolean;
}

export interface WriteContext {
  /** The server's clock: the phone's never decides (a phone set a day ahead changes nothing). */
  now: Date;
  /** The item's key (the Idempotency-Key header of votes and photos from phones). */
  itemKey?: string | undefined;
  /** What a vote or photo is: what a key heard before the close must have been heard as (decision 094). */
  item?: PhoneItem | undefined;
}

/** A vote or photo as it arrives: whose, which record and slot, its content, the era its phone stamped. */
export interface PhoneItem {
  email: string;
  recordId: number;
  kind: DrillKind;
  fingerprint: string;
  /** The era the phone stamped on it at capture (absent from phones that do not stamp). */
  era?: string | undefined;
}

/**
 * The one check of the day's phase, run by every write of the records features inside the write's own
 * transaction (docs/decisions/078), so that no vote, photo, correction, void or import skips it:
 * - votes and photos: refused in 'preparacion'; taken in 'simulacro' (as drill) and 'en_curso'; after
 *   the close, taken only when a phone reported their key before the close and the grace has not run
 *   out (then `late`);
 * - corrections, voids and imports: taken in 'preparacion' and 'en_curso'; refused during the drill
 *   (its erasure puts back votes and photos, not what an admin changed) and after the close (the
 *   close's count stays what it was unless an admin reopens).
 * A refusal is named (preparing, closed, drill_no_admin_changes, drill_item) with the reason in Spanish.
 */
export async function requireElectionOpen(
  db: Kysely<Database>,
  write: ElectionWrite,
  context: WriteContext,
): Promise<WriteAllowance> {
  const fromPhone = write === 'vote' || write === 'photo';
  const repo = createElectionRepository(db);
  // The day's row first, locked: the first lock of every write, so a change of phase orders with it.
  const day = await lockElection(db, context.now, 'share');
  // A drill item sent after the drill was erased: never a real vote, whatever the phase (decision 079).
  if (fromPhone && context.itemKey && (await repo.isErasedDrillKey(context.itemKey))) {
    throw new Refusal('drill_item', electionMessages.drillItem);
  }
  // Made during a drill that has ended, by the era its phone stamped on it: never real (decision 094).
  const era = context.item?.era;
  if (fromPhone && era && era !== day.row?.era && (await repo.isEndedDrillEra(era))) {
    throw new Refusal('drill_item', electionMessages.drillItem);
  }
  switch (day.phase) {
    case 'en_curso':
      return { drill: false, late: false };
    case 'preparacion':
      if (fromPhone) throw new Refusal('preparing', electionMessages.preparing);
      return { drill: false, late: false };
    case 'simulacro':
      if (!fromPhone) throw new Refusal('drill_no_admin_changes', electionMessages.drillNoAdminChanges);
      return { drill: true, late: false };
    case 'cerrada': {
      const closedAt = day.closedAt ?? context.now.toISOString();
      // The close's counts are kept before anything is taken after it.
      await ensureCloseSnapshot(db, closedAt, context.now);
      if (!fromPhone) throw new Refusal('closed', electionMessages.closedForAdmins(closedAt));
      if (context.itemKey && context.item) {
        const heard = await heardBeforeClose(db, context.itemKey, closedAt, day.graceHours, context.now);
        if (heard && heard.era !== null && heard.era !== day.row?.era && (await repo.isEndedDrillEra(heard.era))) {
          throw new Refusal('drill_item', electionMessages.drillItem);
        }
        if (heard && matches(heard, context.item)) return { drill: false, late: true };
      }
      throw new Refusal('closed', electionMessages.closedAt(closedAt));
    }
  }
}

/** A key heard before the close vouches only for what it was heard as: person, record, slot and content. */
const matches = (heard: HeardKeyRow, item: PhoneItem) =>
  heard.user_email === item.email &&
  heard.record_id === item.recordId &&
  heard.kind === item.kind &&
  heard.fingerprint === item.fingerprint;

/** The result counters as a close keeps them. */
export interface CloseCounts {
  ballots: { department_id: number; ballots: number }[];
  candidates: { department_id: number; candidate_id: number; votes: number }[];
  /** The audit chain's head when the counts were taken: every row up to it is what they come from. */
  chainHead?: { seq: number; hash: string } | null;
}

/**
 * Keeps the counts of the close at `closedAt`, once: at a close by hand in its own change; for a close
 * set in advance, in the first change or read after its time. Either way before any late arrival is
 * taken (every write after the close runs requireElectionOpen, which calls this first), so the counts
 * are those of the close, whenever they are taken.
 */
export async function ensureCloseSnapshot(db: Kysely<Database>, closedAt: string, now: Date): Promise<void> {
  // Outside a change (a page reading the close): in a transaction that orders with the writes under way.
  if (!db.isTransaction) {
    await settleClose(db, now);
    return;
  }
  const repo = createElectionRepository(db);
  if (await repo.findCloseSnapshot(closedAt)) return;
  const records = createRecordsRepository(db);
  const counts: CloseCounts = {
    ballots: await records.voteTotals(),
    candidates: await records.candidateTotals(),
    chainHead: await readChainHead(db),
  };
  await repo.addCloseSnapshot({ closed_at: closedAt, taken_at: now.toISOString(), counts: JSON.stringify(counts) });
}

/** The close's time-stamp: the authority's reply when it gave one, or when it was last asked and why not. */
export interface CloseStamp {
  /** The RFC 3161 reply (DER), for `openssl ts -verify -digest <the head's hash>`. */
  reply: Buffer | null;
  stampedAt: string | null;
  triedAt: string | null;
  error: string | null;
}

/** The counts kept at a close, if taken, with the chain head's time-stamp. */
export async function readCloseSnapshot(
  db: Kysely<Database>,
  closedAt: string,
): Promise<{ takenAt: string; counts: CloseCounts; stamp: CloseStamp } | undefined> {
  const row = await createElectionRepository(db).findCloseSnapshot(closedAt);
  return (
    row && {
      takenAt: row.taken_at,
      counts: JSON.parse(row.counts) as CloseCounts,
      stamp: {
        reply: row.stamp === null ? null : Buffer.from(row.stamp, 'base64'),
        stampedAt: row.stamped_at,
        triedAt: row.stamp_tried_at,
        error: row.stamp_error,
      },
    }
  );
}

/** A close left without a stamp is asked for one again at most this often. */
export const CLOSE_STAMP_RETRY_MS = 60_000;
/** How long a close waits for the authority: it never waits longer, and is kept without a stamp instead. */
export const CLOSE_STAMP_TIMEOUT_MS = 5_000;

/**
 * Has the chain's head at the close (the head its counts were taken at) stamped by the RFC 3161 authority
 * and keeps the reply with the close (decision 088). Run after the close's change has committed, never
 * inside a transaction. An authority that is down, slow (CLOSE_STAMP_TIMEOUT_MS) or refusing does not make
 * it throw: the close stays as it is, without a stamp, with the try noted; the next try comes from a
 * later look at the close (Jornada, an evidence package) once CLOSE_STAMP_RETRY_MS has passed, or at once
 * when `force`d.
 */
export async function stampClose(
  db: Kysely<Database>,
  closedAt: string,
  options: { url: string; now: Date; force?: boolean; timeoutMs?: number },
): Promise<CloseStamp | undefined> {
  const snapshot = await readCloseSnapshot(db, closedAt);
  const head = snapshot?.counts.chainHead;
  if (!snapshot || !head || snapshot.stamp.reply) return snapshot?.stamp;
  const { triedAt } = snapshot.stamp;
  if (!options.force && triedAt && options.now.getTime() - new Date(triedAt).getTime() < CLOSE_STAMP_RETRY_MS) {
    return snapshot.stamp;
  }
  const repo = createElectionRepository(db);
  try {
    const reply = await requestTimestamp(options.url, head.hash, {
      timeoutMs: options.timeoutMs ?? CLOSE_STAMP_TIMEOUT_MS,
    });
    await repo.saveCloseStamp(closedAt, { stamp: reply.toString('base64'), stamped_at: options.now.toISOString() });
  } catch (error) {
    const reason = error instanceof TimestampError ? error.message : String(error);
    await repo.noteCloseStampTry(closedAt, {
      stamp_tried_at: options.now.toISOString(),
      stamp_error: reason.slice(0, 200),
    });
  }
  return (await readCloseSnapshot(db, closedAt))?.stamp;
}

const graceOver = (closedAt: string, graceHours: number, now: Date) =>
  now.getTime() >= new Date(closedAt).getTime() + graceHours * HOUR_MS;

/** The key as a phone reported it before the close, while the grace after the close still runs. */
async function heardBeforeClose(
  db: Kysely<Database>,
  itemKey: string,
  closedAt: string,
  graceHours: number,
  now: Date,
): Promise<HeardKeyRow | undefined> {
  if (graceOver(closedAt, graceHours, now)) return undefined;
  const heard = await createElectionRepository(db).heardKey(itemKey);
  return heard && heard.heard_at < closedAt ? heard : undefined;
}

/** What a drill item's record is before it: read in the item's transaction, before its write. */
export async function recordBeforeDrillItem(
  db: Kysely<Database>,
  recordId: number,
): Promise<{ revision: number; updatedAt: string } | undefined> {
  const row = await createElectionRepository(db).recordBefore(recordId);
  return row && { revision: row.vote_revision, updatedAt: row.updated_at };
}

/** Keeps a vote or photo made during the drill, with its record as it was, for its erasure. */
export async function recordDrillItem(
  db: Kysely<Database>,
  item: {
    kind: DrillKind;
    recordId: number;
    photoId?: number;
    itemKey?: string;
    before: { revision: number; updatedAt: string };
    now: Date;
  },
): Promise<void> {
  await createElectionRepository(db).addDrillItem({
    kind: item.kind,
    record_id: item.recordId,
    photo_id: item.photoId ?? null,
    item_key: item.itemKey ?? null,
    record_revision: item.before.revision,
    record_updated_at: item.before.updatedAt,
    made_at: item.now.toISOString(),
  });
}

/**
 * A vote or photo taken late is kept as such, in its own transaction: the back office marks it
 * 'llegó después del cierre' and the results count it apart.
 */
export async function recordLateArrival(
  db: Kysely<Database>,
  item: { itemKey: string; kind: string; slug: string; recordId: number; email: string; now: Date },
): Promise<void> {
  const day = await readElection(db, item.now);
  await createElectionRepository(db).addLateArrival({
    item_key: item.itemKey,
    kind: item.kind,
    department_slug: item.slug,
    record_id: item.recordId,
    user_email: item.email,
    arrived_at: item.now.toISOString(),
    closed_at: day.closedAt ?? item.now.toISOString(),
  });
}

/** A waiting item as a phone's report names it, checked to be the person's own record. */
export interface ReportedItem {
  key: string;
  recordId: number;
  kind: DrillKind;
  /** The ballot's codes (voteFingerprint) or the photo's SHA-256; absent, the key vouches for nothing. */
  fingerprint?: string | undefined;
  era?: string | null | undefined;
}

/**
 * The most keys one person's phones may have heard at once: what they could hold (decision 094), every
 * phone of theirs (FIELD_DEVICES_PER_PERSON, 5) with a full report (FIELD_REPORT_MAX_ITEMS, 500).
 */
export const HEARD_KEYS_PER_PERSON = 2_500;

/**
 * The keys a phone's field report names, each bound to what it was reported as (person, record, slot,
 * content, era) and kept with when it was first heard of (server's clock): the proof, after the close,
 * that this item was on a phone before it (decision 094). Called in the report's change, with the items
 * already checked to be records of the person's departments. At most HEARD_KEYS_PER_PERSON a person: over
 * it, keys their phones no longer name (`held`) are forgotten first, and what still does not fit is not
 * kept. After the close nothing new is kept (it would vouch for nothing); once the grace has run out,
 * every key goes.
 */
export async function rememberReportedKeys(
  db: Kysely<Database>,
  items: readonly ReportedItem[],
  email: string,
  now: Date,
  held: () => Promise<readonly string[]>,
): Promise<void> {
  const repo = createElectionRepository(db);
  const day = await readElection(db, now);
  if (day.closedAt) {
    if (graceOver(day.closedAt, day.graceHours, now)) await repo.forgetHeardKeys();
    return;
  }
  const eras = [...new Set(items.flatMap((i) => (i.era ? [i.era] : [])))];
  const endedDrills = await repo.endedDrillEras(eras);
  const at = now.toISOString();
  let rows: HeardKeyRow[] = items.flatMap((i) =>
    i.fingerprint && !(i.era && endedDrills.has(i.era))
      ? [
          {
            item_key: i.key,
            user_email: email,
            heard_at: at,
            record_id: i.recordId,
            kind: i.kind,
            fingerprint: i.fingerprint,
            era: i.era ?? null,
          },
        ]
      : [],
  );
  if (rows.length === 0) return;
  if ((await repo.countHeardKeysOf(email)) + rows.length > HEARD_KEYS_PER_PERSON) {
    await repo.forgetHeardKeysOf(email, await held());
    const known = await repo.heardAmong(rows.map((r) => r.item_key));
    const room = Math.max(0, HEARD_KEYS_PER_PERSON - (await repo.countHeardKeysOf(email)));
    rows = rows.filter((r) => !known.has(r.item_key)).slice(0, room);
  }
  await repo.rememberHeardKeys(rows);
}

/** Every key phones reported goes (the purge of personal data: a key names a person's record). */
export async function forgetReportedKeys(db: Kysely<Database>): Promise<void> {
  await createElectionRepository(db).forgetHeardKeys();
}
