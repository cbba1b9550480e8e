import type { Kysely } from 'kysely';
import { requireElectionOpen } from '#server/core/election/election';
import { reviewedOf } from '#server/core/records/photo-reviews.repository';
import { requireNoPurgeHold } from '#server/core/records/purge-hold';
import { createRecordChangesRepository, type RecordFieldsUpdate } from '#server/core/records/record-changes.repository';
import {
  type RecordChangeHooks,
  type RecordsActor,
  recordListAnswers,
  requireMunicipality,
} from '#server/core/records/records';
import { normalizedPhone, personKey } from '#server/core/records/records.identity';
import { createRecordsRepository, type MunicipalityRow, type NewRecord } from '#server/core/records/records.repository';
import { searchPattern } from '#server/core/records/records.search';
import { type Change, runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, Conflict, NotFound } from '#server/platform/http/errors';
import {
  type RecordAdmin,
  type RecordPhone,
  type RecordStatusValue,
  type RecordsAdminPage,
  type RecordsDepartments,
  recordsAdminMessages,
} from '#shared/features/records-admin/records-admin';
import { normaliseRecordCode } from '#shared/platform/record-code';
import { isMaskedPhone, maskPhone, type RecordFields, type RecordsAdminFilter } from '#shared/platform/record-fields';
import { recordMessages } from '#shared/platform/records';
import {
  createRecordsAdminRepository,
  type RecordAdminRow,
  type RecordsAdminRepository,
} from './records-admin.repository';

/**
 * What the back office sees of a record: the phone masked (decision 081). An admin needs no phone to
 * run the back office; 'Mostrar' asks for one record's, and that look is audited.
 */
export function presentRecordAdmin(row: RecordAdminRow): RecordAdmin {
  return {
    id: row.id,
    departmentSlug: row.department_slug,
    departmentTitle: row.department_title,
    comunidad: row.comunidad,
    nombre: row.nombre,
    ubch: row.ubch,
    telefono: maskPhone(row.telefono),
    status: row.status as RecordStatusValue,
    votedAt: row.voted_at,
    votes: row.vote_codes ? row.vote_codes.split(',').filter(Boolean) : [],
    photos: [row.gobernador_photo_id, row.an_photo_id, row.clez_photo_id].filter((p) => p !== null).length,
    validated: row.completed === 1,
    votedBy: row.voted_at === null ? null : row.voted_by,
    validatedBy: row.completed === 1 ? row.validated_by : null,
    voteCounts: row.vote_counted === 1,
    voteRevision: row.vote_revision,
    code: row.short_code ?? '',
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

type Fields = { comunidad: string; nombre: string; ubch: string; telefono: string };

/** The names of the fields an update changed (never their values: decision 081). */
const changedFields = (before: Fields, after: Fields) =>
  (['comunidad', 'nombre', 'ubch', 'telefono'] as const).filter((f) => before[f] !== after[f]);

const fieldsOf = (r: Fields) => ({
  comunidad: r.comunidad,
  nombre: r.nombre,
  ubch: r.ubch,
  telefono: r.telefono,
});

/** Another record of the department about the same person (same name and phone), if any. */
async function findDuplicate(
  repo: RecordsAdminRepository,
  departmentId: number,
  fields: { nombre: string; telefono: string },
  exceptId?: number,
): Promise<{ id: number; nombre: string } | undefined> {
  const key = personKey(fields.nombre, fields.telefono);
  // The stored search text holds the phone's digits: its last seven find the few candidates.
  const candidates = await repo.withPhoneDigits(departmentId, normalizedPhone(fields.telefono).slice(-7));
  return candidates.find((c) => c.id !== exceptId && personKey(c.nombre, c.telefono) === key);
}

const codesOf = (row: { voted_at: string | null; vote_codes: string | null }) =>
  row.voted_at === null ? null : (row.vote_codes ?? '').split(',').filter(Boolean);

/**
 * New fields (and municipality) for a pending record; moving it to another municipality moves its
 * pending count too, and only while it is unvoted (a vote counts where it was cast). False when the
 * record is no longer pending, or was voted meanwhile when it had to move.
 */
async function writeFields(
  trx: Kysely<Database>,
  id: number,
  fromDepartmentId: number,
  fields: RecordFieldsUpdate,
  now: Date,
): Promise<boolean> {
  const moves = fields.departmentId !== fromDepartmentId;
  if (!(await createRecordChangesRepository(trx).updateFields(id, fields, now, moves))) return false;
  if (moves) {
    // An unvoted record: it counts as pending in its new department only.
    const records = createRecordsRepository(trx);
    await records.bumpCounts(fromDepartmentId, { total: -1 });
    await records.bumpCounts(fields.departmentId, { total: 1 });
  }
  return true;
}

/** A change another system made to a record it brought: the record, its municipality now, its new fields. */
export interface SourceChange {
  id: number;
  departmentId: number;
  fields: RecordFieldsUpdate;
}

/**
 * Adding, editing, voiding and restoring records by hand, and correcting their votes. Each change is one
 * transaction with its audit row, the department's progress counts (pending, voted, validated) and the
 * result counters moved exactly as the change moves them (docs/decisions/038 and 039); once it
 * committed, the validators' lists are read again.
 */
export function createRecordsAdminService(db: Kysely<Database>, clock: () => Date, hooks: RecordChangeHooks = {}) {
  const repo = createRecordsAdminRepository(db);

  /** Runs one change (its writes and audit row), then forgets every department's kept list. */
  function change<T>(work: (change: Change) => Promise<T>): Promise<T> {
    return runChange(db, work, { forget: [recordListAnswers] });
  }

  async function reread(trx: Kysely<Database>, id: number): Promise<RecordAdminRow> {
    const row = await createRecordsAdminRepository(trx).findById(id);
    if (!row) throw NotFound(recordsAdminMessages.recordNotFound);
    return row;
  }

  return {
    listMunicipalities: (): Promise<MunicipalityRow[]> => createRecordsRepository(db).listMunicipalities(),

    /** Every municipality and parish with its pending, voted, validated and voided records. */
    async departments(): Promise<RecordsDepartments> {
      const rows = await repo.municipalityCounts();
      return { items: rows.map(({ id: _id, ...row }) => row) };
    },

    /** A page of one municipality's records, or of all of them, with a search. */
    async list(query: {
      department?: string;
      q?: string;
      status: RecordsAdminFilter;
      after?: number;
      limit: number;
    }): Promise<RecordsAdminPage> {
      const { department, q, status, after, limit } = query;
      const found = department === undefined ? undefined : await requireMunicipality(db, department);
      // A search that is a record's SMS code (typed however: lower case, O for 0) finds that record too.
      const code = q ? normaliseRecordCode(q) : undefined;
      const page = await repo.listPage(found?.id, { status, pattern: searchPattern(q), code, after, limit });
      return { items: page.rows.map(presentRecordAdmin), nextCursor: page.nextCursor };
    },

    /**
     * Records another system brings (each with its `sourceId`), inserted as they come; each batch moves
     * its departments' counts in the same transaction. Their ids, in order.
     */
    insertFromSource(records: NewRecord[]): Promise<number[]> {
      const now = clock();
      return change(async ({ trx }) => {
        // The day's phase decides as for the CSV import: refused during the drill and after the close.
        await requireElectionOpen(trx, 'import', { now });
        // After 'Borrar datos personales', another system would bring back what it took (decision 093).
        await requireNoPurgeHold(trx);
        return createRecordsRepository(trx).insertMany(records, now);
      });
    },

    /**
     * Changes another system made to records it brought, in one transaction, each written as a change by
     * hand is (no audit row: the import writes its own). Whether each one was written.
     */
    updateFromSource(changes: SourceChange[]): Promise<boolean[]> {
      return change(async ({ trx }) => {
        await requireElectionOpen(trx, 'import', { now: clock() });
        await requireNoPurgeHold(trx);
        const written: boolean[] = [];
        for (const c of changes) written.push(await writeFields(trx, c.id, c.departmentId, c.fields, clock()));
        return written;
      });
    },

    async create(input: RecordFields & { department: string }, actor: RecordsActor): Promise<RecordAdmin> {
      const now = clock();
      const department = await requireMunicipality(db, input.department);
      const fields = fieldsOf(input);
      return change(async ({ trx, audit }) => {
        const tx = createRecordsAdminRepository(trx);
        const duplicate = await findDuplicate(tx, department.id, fields);
        if (duplicate) throw Conflict(recordsAdminMessages.duplicate(duplicate.nombre, duplicate.id));
        // insertMany moves the department's pending count in the same transaction.
        const [id] = await createRecordsRepository(trx).insertMany([{ departmentId: department.id, ...fields }], now);
        const row = await reread(trx, id as number);
        await audit({
          actorEmail: actor.email,
          action: 'record.create',
          departmentSlug: department.slug,
          target: `record:${row.id}`,
          ip: actor.ip,
          // Ids and field names only: the audit log outlives the purge of personal data (decision 081).
          details: { fields: Object.keys(fields) },
          at: now,
        });
        return presentRecordAdmin(row);
      });
    },

    async update(id: number, input: RecordFields & { department: string }, actor: RecordsActor): Promise<RecordAdmin> {
      const now = clock();
      const target = await requireMunicipality(db, input.department);
      return change(async ({ trx, audit }) => {
        const tx = createRecordsAdminRepository(trx);
        const before = await tx.findById(id);
        if (!before) throw NotFound(recordsAdminMessages.recordNotFound);
        // The phone as the list showed it, masked: the stored one stays.
        const fields = fieldsOf(isMaskedPhone(input.telefono) ? { ...input, telefono: before.telefono } : input);
        if (before.status !== 'pendiente') throw Conflict(recordsAdminMessages.voided);
        const moves = target.id !== before.department_id;
        if (moves && before.voted_at !== null) throw Conflict(recordsAdminMessages.votedCannotMove);
        const duplicate = await findDuplicate(tx, target.id, fields, id);
        if (duplicate) throw Conflict(recordsAdminMessages.duplicate(duplicate.nombre, duplicate.id));
        const updated = await writeFields(trx, id, before.department_id, { departmentId: target.id, ...fields }, now);
        if (!updated) {
          // Voided or voted by someone else between the read and the write.
          const current = await reread(trx, id);
          throw Conflict(
            current.status !== 'pendiente' ? recordsAdminMessages.voided : recordsAdminMessages.votedCannotMove,
          );
        }
        const after = await reread(trx, id);
        await audit({
          actorEmail: actor.email,
          action: 'record.update',
          departmentSlug: after.department_slug,
          target: `record:${id}`,
          ip: actor.ip,
          details: {
            department: { from: before.department_slug, to: after.department_slug },
            changed: changedFields(before, after),
          },
          at: now,
        });
        return presentRecordAdmin(after);
      });
    },

    /**
     * Voids a record: it leaves the validators' list and the progress counts (pending, voted, validated);
     * the row, its photos, its ballot and its audit trail stay. Its vote leaves the results too unless
     * `voteCounts` (docs/decisions/039).
     */
    async void(id: number, input: { reason: string; voteCounts: boolean }, actor: RecordsActor): Promise<RecordAdmin> {
      const now = clock();
      return change(async ({ trx, audit }) => {
        await requireElectionOpen(trx, 'void', { now });
        const tx = createRecordsAdminRepository(trx);
        const records = createRecordsRepository(trx);
        const before = await tx.findById(id);
        if (!before) throw NotFound(recordsAdminMessages.recordNotFound);
        const left = await createRecordChangesRepository(trx).markVoided(id, input.voteCounts, now);
        if (!left) throw Conflict(recordsAdminMessages.alreadyVoided);
        const voted = left.voted_at !== null;
        await records.bumpCounts(left.department_id, {
          total: -1,
          voted: voted ? -1 : 0,
          validated: -left.completed,
          reviewed: -left.reviewed,
        });
        if (voted && !input.voteCounts) {
          await records.moveBallot(left.department_id, await records.votesOf(id), -1, left.voted_at);
        }
        await audit({
          actorEmail: actor.email,
          action: 'record.void',
          departmentSlug: before.department_slug,
          target: `record:${id}`,
          ip: actor.ip,
          details: { voted, voteCounts: voted ? input.voteCounts : null, reason: input.reason },
          at: now,
        });
        return presentRecordAdmin(await reread(trx, id));
      });
    },

    /**
     * Brings a voided record back to the validators' list and the progress counts; a vote that had left
     * the results counts again, exactly as it did before.
     */
    async restore(id: number, reason: string, actor: RecordsActor): Promise<RecordAdmin> {
      const now = clock();
      return change(async ({ trx, audit }) => {
        await requireElectionOpen(trx, 'void', { now });
        const tx = createRecordsAdminRepository(trx);
        const records = createRecordsRepository(trx);
        const before = await tx.findById(id);
        if (!before) throw NotFound(recordsAdminMessages.recordNotFound);
        if (before.status !== 'anulado') throw Conflict(recordsAdminMessages.notVoided);
        const back = await createRecordChangesRepository(trx).markRestored(id, before.vote_counted, now);
        // Restored (or voided again another way) by someone else between the read and the write.
        if (!back) throw Conflict(recordsAdminMessages.notVoided);
        const voted = back.voted_at !== null;
        await records.bumpCounts(back.department_id, {
          total: 1,
          voted: voted ? 1 : 0,
          validated: back.completed,
          reviewed: back.reviewed,
        });
        if (voted && before.vote_counted === 0) {
          await records.moveBallot(back.department_id, await records.votesOf(id), 1, back.voted_at);
        }
        await audit({
          actorEmail: actor.email,
          action: 'record.restore',
          departmentSlug: before.department_slug,
          target: `record:${id}`,
          ip: actor.ip,
          details: { voted, voteCountsAgain: voted && before.vote_counted === 0, reason },
          at: now,
        });
        return presentRecordAdmin(await reread(trx, id));
      });
    },

    /**
     * Changes a record's vote to other candidates (none is a vote for nobody), or clears it (`codes`
     * null: the record is unvoted and back on the validators' list to vote). The ballot's rows, the result
     * counters, the progress counts and the audit row (before and after) move in one transaction. The
     * vote must still be the one the admin corrected (`voteRevision`): otherwise 409 with the record as it
     * is now, so of two corrections of the same vote one applies and the other is refused, never both.
     */
    async correctVote(
      id: number,
      input: { codes: string[] | null; reason: string; voteRevision: number },
      actor: RecordsActor,
    ): Promise<{ record: RecordAdmin; cleared: boolean }> {
      const now = clock();
      const at = now.toISOString();
      const candidates = await createRecordsRepository(db).listCandidates();
      let chosen: typeof candidates | null = null;
      if (input.codes !== null) {
        const known = new Set(candidates.map((c) => c.code));
        const unknown = input.codes.filter((code) => !known.has(code));
        if (unknown.length > 0) throw BadRequest(recordMessages.unknownCandidates(unknown));
        // Stored in the candidates' own order, as a vote is.
        chosen = candidates.filter((c) => (input.codes as string[]).includes(c.code));
      }
      return change(async ({ trx, audit }) => {
        await requireElectionOpen(trx, 'correction', { now });
        const tx = createRecordsAdminRepository(trx);
        const records = createRecordsRepository(trx);
        // Locked: the counters move by what the record is at the commit (a review may complete it meanwhile).
        const before = await tx.findByIdLocked(id);
        if (!before) throw NotFound(recordsAdminMessages.recordNotFound);
        // Corrected from another vote than the one the admin saw: refused, with the vote as it is now.
        if (before.vote_revision !== input.voteRevision) {
          throw Conflict(recordsAdminMessages.voteChanged, { record: presentRecordAdmin(before) });
        }
        if (before.status !== 'pendiente') throw Conflict(recordsAdminMessages.voidedCannotCorrect);
        const beforeCodes = codesOf(before);
        if (beforeCodes === null) throw Conflict(recordsAdminMessages.notVoted);
        const afterCodes = chosen?.map((c) => c.code) ?? null;
        if (afterCodes !== null && afterCodes.join(',') === beforeCodes.join(',')) {
          throw BadRequest(recordsAdminMessages.sameVote);
        }
        // The check that holds under concurrency: the write matches no row if the vote was written
        // meanwhile (PostgreSQL re-reads the row after the other transaction's commit; SQLite writes one at
        // a time).
        const written = await createRecordChangesRepository(trx).rewriteVote(
          id,
          input.voteRevision,
          { codes: afterCodes, by: actor.email },
          now,
        );
        if (!written) {
          throw Conflict(recordsAdminMessages.voteChanged, { record: presentRecordAdmin(await reread(trx, id)) });
        }

        const had = await records.votesOf(id);
        if (chosen === null) {
          // The ballot leaves the results and the record is unvoted again.
          await records.moveBallot(before.department_id, had, -1, before.voted_at);
          await records.replaceVoteRows(id, had, [], at);
          await records.bumpCounts(before.department_id, {
            voted: -1,
            validated: -before.completed,
            reviewed: -reviewedOf(before),
          });
        } else {
          const wanted = chosen.map((c) => c.id);
          const removed = had.filter((c) => !wanted.includes(c));
          const added = wanted.filter((c) => !had.includes(c));
          await records.moveCandidateVotes(before.department_id, removed, -1, before.voted_at);
          await records.moveCandidateVotes(before.department_id, added, 1, before.voted_at);
          await records.replaceVoteRows(id, removed, added, at);
        }
        await hooks.afterVote?.(trx, {
          recordId: id,
          codes: afterCodes ?? [],
          at,
          revision: input.voteRevision + 1,
        });
        await audit({
          actorEmail: actor.email,
          action: 'record.vote.correct',
          departmentSlug: before.department_slug,
          target: `record:${id}`,
          ip: actor.ip,
          details: {
            before: { candidates: beforeCodes, votedBy: before.voted_by },
            after: { candidates: afterCodes },
            reason: input.reason,
          },
          at: now,
        });
        return { record: presentRecordAdmin(await reread(trx, id)), cleared: afterCodes === null };
      });
    },

    /** 'Mostrar': one record's whole phone, with the audit row of who looked at whose (decision 081). */
    async showPhone(id: number, actor: RecordsActor): Promise<RecordPhone> {
      const now = clock();
      return runChange(db, async ({ trx, audit }) => {
        const row = await reread(trx, id);
        // A purged record has no phone: there is nothing to show, and no look to record (decision 093).
        if (row.telefono.trim() === '') throw NotFound(recordsAdminMessages.noPhone);
        await audit({
          actorEmail: actor.email,
          action: 'record.phone_shown',
          departmentSlug: row.department_slug,
          target: `record:${id}`,
          ip: actor.ip,
          at: now,
        });
        return { telefono: row.telefono };
      });
    },
  };
}
export type RecordsAdminService = ReturnType<typeof createRecordsAdminService>;
