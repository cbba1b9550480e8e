import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  recordBeforeDrillItem,
  recordDrillItem,
  recordLateArrival,
  requireElectionOpen,
} from '#server/core/election/election';
import {
  departmentLists,
  notPendingRefusal,
  presentListedRecord,
  presentRecord,
  type RecordChangeHooks,
  recordListAnswers,
  requireValidationDepartment,
  type VoteRequest,
  withSmsCode,
} from '#server/core/records/records';
import { type CandidateRow, createRecordsRepository, type RecordRow } from '#server/core/records/records.repository';
import { searchPattern } from '#server/core/records/records.search';
import { BallotTally, createVotesRepository } from '#server/core/records/votes.repository';
import { type Change, runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, Refusal } from '#server/platform/http/errors';
import {
  type Answer,
  type IdempotencyKeys,
  IdempotencyKeyTaken,
  type IdempotentRequest,
  requestFingerprint,
} from '#server/platform/idempotency/idempotency';
import type { SessionUser } from '#server/platform/session/identity';
import {
  type CandidatesList,
  type RecordsSummary,
  recordsMessages,
  recordsPageSchema,
  type VoteResult,
} from '#shared/features/records/records';
import { voteFingerprint } from '#shared/platform/era';
import { recordMessages } from '#shared/platform/records';
import { createValidationRepository } from './records.repository';

export interface VoteInput {
  department: { id: number; slug: string };
  recordId: number;
  codes: string[];
  user: SessionUser;
  ip: string | null;
  now: Date;
  /** The request's Idempotency-Key: stored with the answer, in the vote's transaction. */
  idempotency?: IdempotentRequest;
  /** Sent by SMS rather than from the app: written in the audit row. */
  channel?: 'sms';
  /** The era its phone stamped on it (decision 094). */
  era?: string | undefined;
}

type Db = Kysely<Database>;

/** How long the candidates list is reused before it is read again. */
const CANDIDATES_TTL_MS = 5_000;

/**
 * A vote's outcome inside its transaction: cast now (with the ballot its transaction's tally adds once
 * the vote went through), answered before under the same key, or neither.
 */
type VoteOutcome =
  | { cast: VoteResult; ballot: Parameters<BallotTally['add']>[0] }
  | { earlier: Answer<VoteResult> }
  | undefined;

interface VoteJob {
  input: VoteInput;
  chosen: CandidateRow[];
  resolve: (outcome: VoteOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * One vote inside an open transaction: the conditional UPDATE (only while `voted_at` is null: the first
 * vote wins, whoever sent it), the ballot's candidates, the audit row and, with an Idempotency-Key, the
 * key (without its answer). The result counters and progress counts move with the transaction's tally
 * (decision 090): the caller adds the ballot returned. Undefined when the record was already voted (or
 * is not the department's); the earlier answer when the key was already used.
 */
async function applyVote(
  change: Change,
  job: Pick<VoteJob, 'input' | 'chosen'>,
  hooks: RecordChangeHooks,
  keys: IdempotencyKeys | undefined,
): Promise<VoteOutcome> {
  const { trx } = change;
  const { input, chosen } = job;
  if (keys && input.idempotency) {
    const earlier = await answerAgain(trx, keys, input);
    if (earlier) return { earlier };
  }
  // The day's phase decides first (docs/decisions/078): refused before the day starts or after its close.
  const allowance = await requireElectionOpen(trx, 'vote', {
    now: input.now,
    itemKey: input.idempotency?.itemKey,
    item: {
      email: input.user.email,
      recordId: input.recordId,
      kind: 'vote',
      fingerprint: voteFingerprint(input.codes),
      era: input.era,
    },
  });
  const drillBefore = allowance.drill ? await recordBeforeDrillItem(trx, input.recordId) : undefined;
  const repo = createVotesRepository(trx);
  const at = input.now.toISOString();
  const row = await repo.markVoted(input.department.id, input.recordId, {
    codes: chosen.map((c) => c.code),
    by: input.user.email,
    at,
  });
  if (!row) return undefined;
  // The counters' rows (and the audit chain's head) are held by every vote until its commit on
  // PostgreSQL: they are written last, with the tally and the chain (decisions 088 and 090).
  const answer: VoteResult = { message: recordsMessages.voteSuccess, record: presentRecord(row) };
  // The key without its answer: a retry gets the record as it is then (answerAgain, decision 090).
  if (keys && input.idempotency) await keys.remember(trx, input.idempotency, 201);
  // Candidates by id: the same order as the counters' rows.
  const candidateIds = chosen.map((c) => c.id).sort((a, b) => a - b);
  await repo.addBallotRows(input.recordId, candidateIds, at);
  // A drill vote goes nowhere else (another system would keep it after the drill is erased).
  if (!allowance.drill) {
    await hooks.afterVote?.(trx, {
      recordId: input.recordId,
      codes: chosen.map((c) => c.code),
      at,
      revision: row.vote_revision,
    });
  }
  if (drillBefore) {
    await recordDrillItem(trx, {
      kind: 'vote',
      recordId: input.recordId,
      itemKey: input.idempotency?.itemKey,
      before: drillBefore,
      now: input.now,
    });
  }
  await change.audit({
    actorEmail: input.user.email,
    action: 'record.vote',
    departmentSlug: input.department.slug,
    target: `record:${input.recordId}`,
    ip: input.ip,
    details: {
      candidates: chosen.map((c) => c.code),
      ...(input.channel ? { channel: input.channel } : {}),
      ...(allowance.late ? { late: true } : {}),
      ...(allowance.drill ? { drill: true } : {}),
    },
    at: input.now,
  });
  if (allowance.late && input.idempotency) {
    await recordLateArrival(trx, {
      itemKey: input.idempotency.itemKey,
      kind: 'vote',
      slug: input.department.slug,
      recordId: input.recordId,
      email: input.user.email,
      now: input.now,
    });
  }
  return {
    cast: answer,
    ballot: { departmentId: input.department.id, candidateIds, at, validated: row.completed === 1 },
  };
}

/** A vote's answer given again: its record as it is now (a vote answered before, the same ballot again). */
function votedAgain(row: RecordRow): Answer<VoteResult> {
  return {
    statusCode: 201,
    body: { message: recordsMessages.voteSuccess, record: presentRecord(row) },
    replayed: true,
  };
}

/**
 * The answer for a vote whose Idempotency-Key was already used for it, or undefined when the key is new.
 * Only the key is kept with a vote (decision 090): the answer is its record as it is now, as the same
 * ballot sent again gets it (decision 084).
 */
async function answerAgain(db: Db, keys: IdempotencyKeys, input: VoteInput): Promise<Answer<VoteResult> | undefined> {
  if (!input.idempotency || !(await keys.answered(input.idempotency, db.isTransaction ? db : undefined))) return;
  const row = await createRecordsRepository(db).findInDepartment(input.department.id, input.recordId);
  return row ? votedAgain(row) : undefined;
}

/** The counters' moves of the votes cast in a transaction, written once and last (decision 090). */
async function writeTally(change: Change, outcomes: readonly VoteOutcome[]): Promise<void> {
  const tally = new BallotTally();
  for (const outcome of outcomes) if (outcome && 'cast' in outcome) tally.add(outcome.ballot);
  await createVotesRepository(change.trx).writeTally(tally);
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
    // The departments whose lists the batch changed, forgotten once it has committed.
    const voted: string[] = [];
    try {
      await runChange(
        db,
        async (change) => {
          const outcomes: VoteOutcome[] = [];
          for (const job of batch) {
            try {
              const outcome = await change.savepoint(() => applyVote(change, job, hooks, keys));
              results.set(job, { outcome });
              outcomes.push(outcome);
              if (outcome && 'cast' in outcome) voted.push(job.input.department.slug);
            } catch (error) {
              results.set(job, { error });
            }
          }
          await writeTally(change, outcomes);
        },
        { forget: [departmentLists(voted)] },
      );
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
        // After the current round of I/O and the next one: every vote that arrived in them joins this
        // transaction. One round more makes batches larger, so fewer flushes to disk per vote (each one
        // holds the only connection and the thread), and costs nothing when the server is idle: the loop
        // does not wait for I/O while an immediate is pending (decision 088).
        setImmediate(() => setImmediate(() => void flush()));
      }
    });
  }

  /** The answer already given to the vote's key, if it has one and it was used. */
  async function earlierAnswer(input: VoteInput): Promise<Answer<VoteResult> | undefined> {
    return keys ? answerAgain(db, keys, input) : undefined;
  }

  return {
    async cast(input: VoteInput): Promise<Answer<VoteResult>> {
      // A key already answered is found inside the vote's transaction (applyVote), which the vote joins
      // anyway: no read of its own before it (decision 088).
      const all = await currentCandidates();
      const known = new Set(all.map((c) => c.code));
      const unknown = input.codes.filter((code) => !known.has(code));
      if (unknown.length > 0) {
        // A retry of a vote stored before a candidate was removed still gets its answer.
        const earlier = await earlierAnswer(input);
        if (earlier) return earlier;
        throw BadRequest(recordMessages.unknownCandidates(unknown));
      }
      // Stored in the candidates' own order, whatever order the boxes were ticked in.
      const chosen = all.filter((c) => input.codes.includes(c.code));
      const job = { input, chosen };
      let outcome: VoteOutcome;
      try {
        outcome =
          dialect === 'sqlite'
            ? await enqueue(job)
            : await runChange(
                db,
                async (change) => {
                  const cast = await applyVote(change, job, hooks, keys);
                  await writeTally(change, [cast]);
                  return cast;
                },
                { forget: [departmentLists([input.department.slug])] },
              );
      } catch (error) {
        // Another request stored this key meanwhile (and this transaction rolled back): its answer is ours.
        if (!(error instanceof IdempotencyKeyTaken)) throw error;
        outcome = undefined;
      }
      // Cast: the department's kept lists were forgotten when its change committed.
      if (outcome && 'cast' in outcome) {
        return { statusCode: 201, body: outcome.cast, replayed: false };
      }
      if (outcome) return outcome.earlier;
      // Not voted by this request: maybe by an earlier one with the same key (a retry whose first answer
      // was lost), otherwise by someone else.
      const byKey = await earlierAnswer(input);
      if (byKey) return byKey;
      const existing = await repo.findInDepartment(input.department.id, input.recordId);
      if (existing?.status !== 'pendiente') throw await notPendingRefusal(db, input.department.id, input.recordId);
      // Counted once (decision 084): the same ballot again (an SMS, then the phone's queue) gets the
      // stored vote's answer; a different one, the conflict with who voted and when.
      if (existing.voted_at !== null && existing.vote_codes === chosen.map((c) => c.code).join(',')) {
        return votedAgain(existing);
      }
      throw new Refusal(
        'already_voted',
        existing.voted_by && existing.voted_at
          ? recordsMessages.alreadyVotedBy(existing.voted_by, existing.voted_at)
          : recordsMessages.alreadyVoted,
      );
    },
  };
}
export type VoteWriter = ReturnType<typeof createVoteWriter>;

/** A list's query as the route parsed it (recordsQuerySchema). */
type RecordsQueryParsed = { q?: string; validated: boolean; after?: number; limit: number };

/** The validators' side of the records, as named use cases: the ballot's candidates, the lists, the vote. */
export function createRecordsService(
  db: Db,
  options: {
    dialect: 'sqlite' | 'postgres';
    hooks: RecordChangeHooks;
    keys: IdempotencyKeys;
    now: () => Date;
    log: FastifyBaseLogger;
    /** SMS votes are on: records carry their code (otherwise it is left out, withSmsCode). */
    smsVotes: boolean;
  },
) {
  const repo = createRecordsRepository(db);
  const lists = recordListAnswers(db);
  const votes = createVoteWriter(db, options.dialect, options.hooks, options.keys);

  return {
    async candidates(): Promise<CandidatesList> {
      const rows = await repo.listCandidates();
      return { items: rows.map((c) => ({ code: c.code, name: c.name, colour: c.colour, photoUrl: c.photo_url })) };
    },

    /** One page of a department's list, as JSON text: the shared pages are kept (recordListAnswers). */
    async listPage(user: SessionUser | null, slug: string, query: RecordsQueryParsed): Promise<string> {
      // Access first, always: the kept answers only ever hold what the department's list shows.
      const department = await requireValidationDepartment(db, user, slug);
      const { q, validated, after, limit } = query;
      const pattern = searchPattern(q);
      // Searches are each their own; the shared pages (the list as everyone scrolls it) are kept.
      const key = pattern === undefined ? `${validated}:${after ?? ''}:${limit}` : undefined;
      const read = async () => {
        const page = await createValidationRepository(db).listPage(department.id, {
          includeValidated: validated,
          pattern,
          after,
          limit,
        });
        return JSON.stringify(
          recordsPageSchema.parse({
            items: page.rows.map(
              (row) =>
                withSmsCode({ record: presentListedRecord(row, page.reviews.get(row.id)) }, options.smsVotes).record,
            ),
            nextCursor: page.nextCursor,
          }),
        );
      };
      return key === undefined ? read() : lists.get(key, read, department.slug);
    },

    async summary(user: SessionUser | null, slug: string): Promise<RecordsSummary> {
      const department = await requireValidationDepartment(db, user, slug);
      return repo.summary(department.id);
    },

    /** A validator's vote for a record of their department (see createVoteWriter). */
    async vote(input: VoteRequest): Promise<Answer<VoteResult>> {
      const { user, slug, recordId, codes, itemKey: key } = input;
      const department = await requireValidationDepartment(db, user, slug);
      if (key)
        void options.keys.purgeIfDue().catch((error) => options.log.warn({ err: error }, 'idempotency purge failed'));
      const answer = await votes.cast({
        department,
        recordId,
        codes,
        user,
        ip: input.ip,
        now: options.now(),
        ...(input.channel ? { channel: input.channel } : {}),
        era: input.era,
        idempotency:
          key === undefined
            ? undefined
            : {
                itemKey: key,
                actor: user.email,
                // The same ballot whatever order its boxes were ticked in.
                fingerprint: requestFingerprint('vote', department.slug, recordId, ...[...codes].sort()),
              },
      });
      return { ...answer, body: withSmsCode(answer.body, options.smsVotes) };
    },
  };
}
export type RecordsService = ReturnType<typeof createRecordsService>;
