import type { Kysely } from 'kysely';
import { readChainHead } from '#server/platform/audit/audit.repository';
import type { Database } from '#server/platform/db/schema';
import { Conflict, HttpError } from '#server/platform/http/errors';
import { createRecordsRepository } from '#server/platform/records/records.repository';
import { requestTimestamp, TimestampError } from '#server/platform/timestamp/timestamp';
import {
  DEFAULT_GRACE_HOURS,
  type ElectionPhase,
  type ElectionWrite,
  electionMessages,
  electionPhaseSchema,
} from '#shared/features/election/election';
import { createElectionRepository, type DrillKind, type ElectionRow } from './election.repository';

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
  /** The item's Idempotency-Key (votes and photos from phones). */
  key?: string;
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
 * A refusal is a 409 with the reason in Spanish.
 */
export async function requireElectionOpen(
  db: Kysely<Database>,
  write: ElectionWrite,
  context: WriteContext,
): Promise<WriteAllowance> {
  const fromPhone = write === 'vote' || write === 'photo';
  // A drill item sent after the drill was erased: never a real vote, whatever the phase (decision 079).
  if (fromPhone && context.key && (await createElectionRepository(db).isErasedDrillKey(context.key))) {
    throw new HttpError(410, electionMessages.drillItem);
  }
  const day = await readElection(db, context.now);
  switch (day.phase) {
    case 'en_curso':
      return { drill: false, late: false };
    case 'preparacion':
      if (fromPhone) throw Conflict(electionMessages.preparing);
      return { drill: false, late: false };
    case 'simulacro':
      if (!fromPhone) throw Conflict(electionMessages.drillNoAdminChanges);
      return { drill: true, late: false };
    case 'cerrada': {
      const closedAt = day.closedAt ?? context.now.toISOString();
      // The close's counts are kept before anything is taken after it.
      await ensureCloseSnapshot(db, closedAt, context.now);
      if (!fromPhone) throw Conflict(electionMessages.closedForAdmins(closedAt));
      if (context.key && (await reportedBeforeClose(db, context.key, closedAt, day.graceHours, context.now))) {
        return { drill: false, late: true };
      }
      throw Conflict(electionMessages.closedAt(closedAt));
    }
  }
}

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

/** Whether a phone named this key before the close, and the grace after the close still runs. */
async function reportedBeforeClose(
  db: Kysely<Database>,
  key: string,
  closedAt: string,
  graceHours: number,
  now: Date,
): Promise<boolean> {
  if (now.getTime() >= new Date(closedAt).getTime() + graceHours * HOUR_MS) return false;
  const heardAt = await createElectionRepository(db).heardAt(key);
  return heardAt !== undefined && heardAt < closedAt;
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
    key?: string;
    before: { revision: number; updatedAt: string };
    now: Date;
  },
): Promise<void> {
  await createElectionRepository(db).addDrillItem({
    kind: item.kind,
    record_id: item.recordId,
    photo_id: item.photoId ?? null,
    item_key: item.key ?? null,
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
  item: { key: string; kind: string; slug: string; recordId: number; email: string; now: Date },
): Promise<void> {
  const day = await readElection(db, item.now);
  await createElectionRepository(db).addLateArrival({
    item_key: item.key,
    kind: item.kind,
    department_slug: item.slug,
    record_id: item.recordId,
    user_email: item.email,
    arrived_at: item.now.toISOString(),
    closed_at: day.closedAt ?? item.now.toISOString(),
  });
}

/**
 * The keys a phone's field report names, each kept with when it was first heard of (server's clock):
 * the proof, after the close, that the item was on a phone before it. Called in the report's change.
 */
export async function rememberReportedKeys(
  db: Kysely<Database>,
  keys: readonly string[],
  email: string,
  now: Date,
): Promise<void> {
  await createElectionRepository(db).rememberHeardKeys(keys, email, now.toISOString());
}
