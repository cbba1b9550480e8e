import { type Kysely, sql } from 'kysely';
import { requireDepartmentAccess } from '#server/platform/access/access.service';
import { writeAudit } from '#server/platform/audit/audit.repository';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, Conflict, NotFound } from '#server/platform/http/errors';
import type { SessionUser } from '#server/platform/session/identity';
import { type ProcedureRecord, recordsMessages } from '#shared/features/records/records';
import type { PhotoKind } from '#shared/platform/constants';
import { type CandidateRow, createRecordsRepository, type RecordRow } from './records.repository';

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

interface VoteJob {
  input: VoteInput;
  chosen: CandidateRow[];
  resolve: (row: RecordRow | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * One vote inside an open transaction: the conditional UPDATE (only while `voted_at` is null: the first
 * vote wins, whoever sent it), the ballot's candidates, the result counters, the progress counts and the
 * audit row. Undefined when the record was already voted (or is not the department's).
 */
async function applyVote(trx: Db, job: VoteJob, hooks: RecordChangeHooks): Promise<RecordRow | undefined> {
  const { input, chosen } = job;
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
  return row;
}

/**
 * Registers votes. Each vote is atomic and the first one wins (see applyVote); a second or concurrent
 * one gets 409. On PostgreSQL each vote is its own transaction. On SQLite, where every commit waits
 * for the disk (synchronous=FULL) and holds the only connection, the votes that arrive together are
 * committed together: one transaction, each vote in its own savepoint, one flush to disk, and nobody
 * hears "voted" before that flush. The same guarantees, many more votes per second.
 */
export function createVoteWriter(db: Db, dialect: 'sqlite' | 'postgres', hooks: RecordChangeHooks = {}) {
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
    const results = new Map<VoteJob, { row?: RecordRow; error?: unknown }>();
    try {
      await db.transaction().execute(async (trx) => {
        for (const job of batch) {
          await sql`savepoint vote`.execute(trx);
          try {
            results.set(job, { row: await applyVote(trx, job, hooks) });
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
      else job.resolve(result?.row);
    }
  }

  function enqueue(job: Omit<VoteJob, 'resolve' | 'reject'>): Promise<RecordRow | undefined> {
    return new Promise((resolve, reject) => {
      queue.push({ ...job, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        // After the current round of I/O: every vote that arrived in it joins this transaction.
        setImmediate(() => void flush());
      }
    });
  }

  return {
    async cast(input: VoteInput): Promise<RecordRow> {
      const all = await currentCandidates();
      const known = new Set(all.map((c) => c.code));
      const unknown = input.codes.filter((code) => !known.has(code));
      if (unknown.length > 0) throw BadRequest(recordsMessages.unknownCandidates(unknown));
      // Stored in the candidates' own order, whatever order the boxes were ticked in.
      const chosen = all.filter((c) => input.codes.includes(c.code));
      const job = { input, chosen };
      const voted =
        dialect === 'sqlite'
          ? await enqueue(job)
          : await db
              .transaction()
              .execute((trx) => applyVote(trx, { ...job, resolve: () => {}, reject: () => {} }, hooks));
      if (voted) return voted;
      const existing = await repo.findInDepartment(input.department.id, input.recordId);
      if (existing?.status !== 'pendiente') throw NotFound(recordsMessages.recordNotFound);
      throw Conflict(recordsMessages.alreadyVoted);
    },
  };
}
export type VoteWriter = ReturnType<typeof createVoteWriter>;

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
