import { type Kysely, sql } from 'kysely';
import { requireDepartmentAccess } from '#server/platform/access/access.service';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { timedAnswers } from '#server/platform/cache/cache';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, Conflict, NotFound } from '#server/platform/http/errors';
import {
  type Answer,
  type IdempotencyKeys,
  IdempotencyKeyTaken,
  type IdempotentRequest,
} from '#server/platform/idempotency/idempotency';
import type { SessionUser } from '#server/platform/session/identity';
import { recordsMessages, type VoteResult } from '#shared/features/records/records';
import type { PhotoKind } from '#shared/platform/constants';
import { type ProcedureRecord, recordMessages } from '#shared/platform/records';
import { createPhotosRepository, type NewPhoto } from './photos.repository';
import { type CandidateRow, createRecordsRepository, type NewRecord, type RecordRow } from './records.repository';

export type { NewPhoto, NewRecord };

/**
 * The validators' lists as sent (records.routes), per department, for about a second (decision 037). On
 * election day hundreds of validators of a municipality page through the same list: one query and one
 * serialisation serve them all. What keeps it honest:
 * - access is checked before the answers are consulted, and a list holds nothing that depends on who asks;
 * - every change to what a list shows forgets it right after its commit, before its own answer is sent:
 *   a vote or a photo that department's pages, a change by hand or an import every department's;
 * - a change made elsewhere (another instance, the command line) shows within the second. The database
 *   still decides every vote and photo slot, so a page a second old can at worst offer a button that
 *   answers 409 with its clear message.
 */
export const recordListAnswers = timedAnswers<string>({ ttlMs: 1_000, maxEntries: 2_000 });

const photoSlot = (id: number | null) =>
  id === null ? null : { id, url: `/api/photos/${id}`, thumbUrl: `/api/photos/${id}?variant=thumb` };

/** What a record looks like to the browser: no search text, no internal ids beyond its own. */
export function presentRecord(row: RecordRow): ProcedureRecord {
  return {
    id: row.id,
    comunidad: row.comunidad,
    nombre: row.nombre,
    ubch: row.ubch,
    telefono: row.telefono,
    status: row.status,
    votedAt: row.voted_at,
    votes: row.vote_codes ? row.vote_codes.split(',').filter(Boolean) : [],
    photos: {
      gobernador: photoSlot(row.gobernador_photo_id),
      an: photoSlot(row.an_photo_id),
      clez: photoSlot(row.clez_photo_id),
    },
    validated: row.completed === 1,
    votedBy: row.voted_by,
    validatedBy: row.completed === 1 ? row.validated_by : null,
    voteCorrected: row.voted_at !== null && row.vote_revision > 1,
  };
}

export interface VoteInput {
  department: { id: number; slug: string };
  recordId: number;
  codes: string[];
  user: SessionUser;
  ip: string | null;
  now: Date;
  /** The request's Idempotency-Key: stored with the answer, in the vote's transaction. */
  idempotency?: IdempotentRequest;
}

type Db = Kysely<Database>;

/**
 * Extra work inside the transaction of a vote or of a photo, right after the change: it commits with
 * the change or not at all (e.g. queuing the change for another system, see features/airtable).
 */
export interface RecordChangeHooks {
  /** A vote, or an admin's correction of one (`revision` counts the writes of the record's vote, from 1). */
  afterVote?(trx: Db, vote: { recordId: number; codes: string[]; at: string; revision: number }): Promise<void>;
  afterPhoto?(trx: Db, photo: { recordId: number; kind: PhotoKind; photoId: number; at: string }): Promise<void>;
}

/** How long the candidates list is reused before it is read again. */
const CANDIDATES_TTL_MS = 5_000;

/** A vote's outcome inside its transaction: cast now, answered before under the same key, or neither. */
type VoteOutcome = { cast: VoteResult } | { earlier: Answer<VoteResult> } | undefined;

interface VoteJob {
  input: VoteInput;
  chosen: CandidateRow[];
  resolve: (outcome: VoteOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * One vote inside an open transaction: the conditional UPDATE (only while `voted_at` is null: the first
 * vote wins, whoever sent it), the ballot's candidates, the result counters, the progress counts, the
 * audit row and, with an Idempotency-Key, the key with its answer. Undefined when the record was
 * already voted (or is not the department's); the earlier answer when the key was already used.
 */
async function applyVote(
  trx: Db,
  job: Pick<VoteJob, 'input' | 'chosen'>,
  hooks: RecordChangeHooks,
  keys: IdempotencyKeys | undefined,
): Promise<VoteOutcome> {
  const { input, chosen } = job;
  if (keys && input.idempotency) {
    const earlier = await keys.replay<VoteResult>(input.idempotency, trx);
    if (earlier) return { earlier };
  }
  const repo = createRecordsRepository(trx);
  const at = input.now.toISOString();
  const row = await repo.markVoted(input.department.id, input.recordId, {
    codes: chosen.map((c) => c.code),
    by: input.user.email,
    at,
  });
  if (!row) return undefined;
  await repo.addVotes(
    input.department.id,
    input.recordId,
    chosen.map((c) => c.id),
    at,
  );
  await repo.bumpCounts(input.department.id, { voted: 1, validated: row.completed });
  await hooks.afterVote?.(trx, {
    recordId: input.recordId,
    codes: chosen.map((c) => c.code),
    at,
    revision: row.vote_revision,
  });
  await writeAudit(trx, {
    actorEmail: input.user.email,
    action: 'record.vote',
    departmentSlug: input.department.slug,
    target: `record:${input.recordId}`,
    ip: input.ip,
    details: { candidates: chosen.map((c) => c.code) },
    at: input.now,
  });
  const answer: VoteResult = { message: recordsMessages.voteSuccess, record: presentRecord(row) };
  if (keys && input.idempotency) await keys.remember(trx, input.idempotency, 201, answer);
  return { cast: answer };
}

/**
 * Registers votes. Each vote is atomic and the first one wins (see applyVote); a second or concurrent
 * one gets 409, with who voted and when, unless it carries the Idempotency-Key of the vote that won:
 * then it gets that vote's answer again. On PostgreSQL each vote is its own transaction. On SQLite,
 * where every commit waits for the disk (synchronous=FULL) and holds the only connection, the votes
 * that arrive together are committed together: one transaction, each vote in its own savepoint, one
 * flush to disk, and nobody hears "voted" before that flush. The same guarantees, many more votes per
 * second.
 */
export function createVoteWriter(
  db: Db,
  dialect: 'sqlite' | 'postgres',
  hooks: RecordChangeHooks = {},
  keys?: IdempotencyKeys,
) {
  const repo = createRecordsRepository(db);
  let candidates: { rows: CandidateRow[]; at: number } | undefined;
  let queue: VoteJob[] = [];
  let scheduled = false;

  async function currentCandidates(): Promise<CandidateRow[]> {
    if (!candidates || Date.now() - candidates.at > CANDIDATES_TTL_MS) {
      candidates = { rows: await repo.listCandidates(), at: Date.now() };
    }
    return candidates.rows;
  }

  async function flush(): Promise<void> {
    const batch = queue;
    queue = [];
    scheduled = false;
    const results = new Map<VoteJob, { outcome?: VoteOutcome; error?: unknown }>();
    try {
      await db.transaction().execute(async (trx) => {
        for (const job of batch) {
          await sql`savepoint vote`.execute(trx);
          try {
            results.set(job, { outcome: await applyVote(trx, job, hooks, keys) });
            await sql`release savepoint vote`.execute(trx);
          } catch (error) {
            await sql`rollback to savepoint vote`.execute(trx);
            await sql`release savepoint vote`.execute(trx);
            results.set(job, { error });
          }
        }
      });
    } catch (error) {
      for (const job of batch) job.reject(error);
      return;
    }
    for (const job of batch) {
      const result = results.get(job);
      if (result?.error !== undefined) job.reject(result.error);
      else job.resolve(result?.outcome);
    }
  }

  function enqueue(job: Omit<VoteJob, 'resolve' | 'reject'>): Promise<VoteOutcome> {
    return new Promise((resolve, reject) => {
      queue.push({ ...job, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        // After the current round of I/O: every vote that arrived in it joins this transaction.
        setImmediate(() => void flush());
      }
    });
  }

  /** The answer already given to the vote's key, if it has one and it was used. */
  async function earlierAnswer(input: VoteInput): Promise<Answer<VoteResult> | undefined> {
    return keys && input.idempotency ? keys.replay<VoteResult>(input.idempotency) : undefined;
  }

  return {
    async cast(input: VoteInput): Promise<Answer<VoteResult>> {
      const earlier = await earlierAnswer(input);
      if (earlier) return earlier;
      const all = await currentCandidates();
      const known = new Set(all.map((c) => c.code));
      const unknown = input.codes.filter((code) => !known.has(code));
      if (unknown.length > 0) throw BadRequest(recordMessages.unknownCandidates(unknown));
      // Stored in the candidates' own order, whatever order the boxes were ticked in.
      const chosen = all.filter((c) => input.codes.includes(c.code));
      const job = { input, chosen };
      let outcome: VoteOutcome;
      try {
        outcome =
          dialect === 'sqlite'
            ? await enqueue(job)
            : await db.transaction().execute((trx) => applyVote(trx, job, hooks, keys));
      } catch (error) {
        // Another request stored this key meanwhile (and this transaction rolled back): its answer is ours.
        if (!(error instanceof IdempotencyKeyTaken)) throw error;
        outcome = undefined;
      }
      if (outcome && 'cast' in outcome) {
        recordListAnswers(db).forget(input.department.slug);
        return { statusCode: 201, body: outcome.cast, replayed: false };
      }
      if (outcome) return outcome.earlier;
      // Not voted by this request: maybe by an earlier one with the same key (a retry whose first answer
      // was lost), otherwise by someone else.
      const byKey = await earlierAnswer(input);
      if (byKey) return byKey;
      const existing = await repo.findVoteInDepartment(input.department.id, input.recordId);
      if (existing?.status !== 'pendiente') throw await notPendingRefusal(db, input.department.id, input.recordId);
      throw Conflict(
        existing.voted_by && existing.voted_at
          ? recordsMessages.alreadyVotedBy(existing.voted_by, existing.voted_at)
          : recordsMessages.alreadyVoted,
      );
    },
  };
}
export type VoteWriter = ReturnType<typeof createVoteWriter>;

/**
 * Why a vote or photo for a record that is not pending is refused: voided by the coordination (409,
 * saying when: a retry can never succeed), or not in the department at all (the 404 of any unknown
 * record).
 */
export async function notPendingRefusal(db: Kysely<Database>, departmentId: number, recordId: number) {
  const voidedAt = await createRecordsRepository(db).voidedAt(departmentId, recordId);
  return voidedAt ? Conflict(recordMessages.voidedMeanwhile(voidedAt)) : NotFound(recordMessages.recordNotFound);
}

/**
 * The municipality or parish a validator works on. Staff pages (Resultados, Notas, Agenda) hold no
 * records: they answer the same 404 as an unknown or forbidden department.
 */
export async function requireValidationDepartment(
  db: Kysely<Database>,
  user: SessionUser | null,
  slug: string,
): Promise<{ id: number; slug: string; title: string }> {
  const department = await requireDepartmentAccess(db, user, slug);
  if (department.kind !== 'municipality') throw NotFound();
  return department;
}

/** What a bulk load writes, inside its transaction. */
export interface RecordsBulkLoad {
  listMunicipalities(): Promise<{ id: number; slug: string; title: string }[]>;
  listCandidates(): Promise<CandidateRow[]>;
  /** Records, votes already cast included; their ids in order. */
  insertRecords(records: NewRecord[], now: Date): Promise<number[]>;
  insertVoteRows(rows: { record_id: number; candidate_id: number; created_at: string }[]): Promise<void>;
  insertPhotos(photos: NewPhoto[]): Promise<number[]>;
}

/**
 * Records written in bulk with their votes and photos (the demo data), in one transaction; then every
 * record's photo slots point at its photos and every count and result total is recounted. Not for the
 * vote or upload paths, which keep their counts as they go.
 */
export async function loadRecordsInBulk(db: Db, load: (tx: RecordsBulkLoad) => Promise<void>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const records = createRecordsRepository(trx);
    const photos = createPhotosRepository(trx);
    await load({
      listMunicipalities: () => records.listMunicipalities(),
      listCandidates: () => records.listCandidates(),
      insertRecords: (list, now) => records.insertMany(list, now),
      insertVoteRows: (rows) => records.insertVoteRows(rows),
      insertPhotos: (list) => photos.insertMany(list),
    });
    await records.relinkPhotoSlots();
    await records.rebuildTotals();
  });
}
