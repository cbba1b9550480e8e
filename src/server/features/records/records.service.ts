import type { Kysely } from 'kysely';
import { type ProcedureRecord, recordsMessages } from '../../../shared/records';
import type { Database } from '../../db/schema';
import type { SessionUser } from '../../plugins/auth';
import { BadRequest, Conflict, NotFound } from '../../plugins/errors';
import { requireDepartmentAccess } from '../access/access.service';
import { writeAudit } from '../audit/audit.repository';
import { createRecordsRepository, type RecordRow } from './records.repository';

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

/**
 * Registers a record's vote. The first vote wins: a conditional UPDATE (only while `voted_at` is null),
 * the ballot's candidates, the result counters and the audit row share one transaction, so a vote is
 * either fully counted or not at all, and a second or concurrent vote gets 409.
 */
export async function castVote(db: Kysely<Database>, input: VoteInput): Promise<RecordRow> {
  const repo = createRecordsRepository(db);
  const candidates = await repo.listCandidates();
  const byCode = new Map(candidates.map((c) => [c.code, c]));
  const unknown = input.codes.filter((code) => !byCode.has(code));
  if (unknown.length > 0) throw BadRequest(recordsMessages.unknownCandidates(unknown));
  // Stored in the candidates' own order, whatever order the boxes were ticked in.
  const chosen = candidates.filter((c) => input.codes.includes(c.code));
  const at = input.now.toISOString();

  const voted = await db.transaction().execute(async (trx) => {
    const tx = createRecordsRepository(trx);
    const row = await tx.markVoted(input.department.id, input.recordId, {
      codes: chosen.map((c) => c.code),
      by: input.user.email,
      at,
    });
    if (!row) return undefined;
    await tx.addVotes(
      input.department.id,
      input.recordId,
      chosen.map((c) => c.id),
      at,
    );
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
  });
  if (voted) return voted;

  const existing = await repo.findInDepartment(input.department.id, input.recordId);
  if (existing?.status !== 'pendiente') throw NotFound(recordsMessages.recordNotFound);
  throw Conflict(recordsMessages.alreadyVoted);
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
