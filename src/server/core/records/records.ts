import type { Kysely } from 'kysely';
import { requireDepartmentAccess } from '#server/platform/access/access.service';
import { timedAnswers } from '#server/platform/cache/cache';
import type { KeptAnswers } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, Refusal } from '#server/platform/http/errors';
import type { SessionUser } from '#server/platform/session/identity';
import { PHOTO_KINDS, type PhotoKind } from '#shared/platform/constants';
import { messages } from '#shared/platform/messages';
import { recordFieldMessages } from '#shared/platform/record-fields';
import { type ProcedureRecord, recordMessages } from '#shared/platform/records';
import {
  createRecordsRepository,
  type ListedRow,
  type MunicipalityRow,
  type RecordRow,
  type ReviewRow,
} from './records.repository';

/*
 * What the records features share (records, photos, records-admin, records-import): the validators'
 * kept lists, the record as a validator sees it, the department a validator works on, and the work
 * another system adds to a vote's or a photo's transaction.
 */

/**
 * The validators' lists as sent (features/records), per department, for about a second (decision 037).
 * On election day hundreds of validators of a municipality page through the same list: one query and
 * one serialisation serve them all. What keeps it honest:
 * - access is checked before the answers are consulted, and a list holds nothing that depends on who asks;
 * - every change to what a list shows forgets it right after its commit, before its own answer is sent
 *   (through the change helper's `forget`): a vote or a photo that department's pages
 *   (`departmentLists`), a change by hand or an import every department's (`recordListAnswers`);
 * - a change made elsewhere (another instance, the command line) shows within the second. The database
 *   still decides every vote and photo slot, so a page a second old can at worst offer a button that
 *   answers 409 with its clear message.
 */
export const recordListAnswers = timedAnswers<string>({ ttlMs: 1_000, maxEntries: 2_000 });

/**
 * The kept lists of these departments only (by slug), for a change's `forget`. The slugs are read once
 * the change has committed: a change that learns as it goes which departments it changed (a batch of
 * votes) names them by filling the array.
 */
export const departmentLists =
  (slugs: readonly string[]): KeptAnswers =>
  (db) => ({
    forget: () => {
      for (const slug of slugs) recordListAnswers(db).forget(slug);
    },
  });

type Db = Kysely<Database>;

/** Who changes records by hand or in bulk (the back office, an import), as the audit log names them. */
export interface RecordsActor {
  email: string;
  ip: string | null;
}

/**
 * A vote as it reaches the records feature's vote use case, from the app (its route) or from an SMS (the
 * sms feature, through app.ts): who, from where, which record of which department, the ballot and its
 * item key.
 */
export interface VoteRequest {
  user: SessionUser;
  ip: string | null;
  slug: string;
  recordId: number;
  codes: string[];
  /** The item key (the `Idempotency-Key` header of the app; an SMS's own key). */
  itemKey: string | undefined;
  /** The vote came by SMS (decision 084): its audit row says so ('channel': 'sms'). */
  channel?: 'sms';
  /** The era its phone stamped on it at capture (decision 094); absent from SMS and older phones. */
  era?: string | undefined;
}

/**
 * Extra work inside the transaction of a vote or of a photo, right after the change: it commits with
 * the change or not at all (e.g. queuing the change for another system, see integrations/airtable).
 */
export interface RecordChangeHooks {
  /** A vote, or an admin's correction of one (`revision` counts the writes of the record's vote, from 1). */
  afterVote?(trx: Db, vote: { recordId: number; codes: string[]; at: string; revision: number }): Promise<void>;
  /** `drill`: made during the drill, to be erased with it: a hook that sends photos elsewhere skips it. */
  afterPhoto?(
    trx: Db,
    photo: { recordId: number; kind: PhotoKind; photoId: number; at: string; drill?: boolean },
  ): Promise<void>;
}

const photoSlot = (id: number | null) =>
  id === null ? null : { id, url: `/api/photos/${id}`, thumbUrl: `/api/photos/${id}?variant=thumb` };

/** The slots a reviewer reopened and not yet filled again (decision 134), when there are any. */
function retakesOf(row: ListedRow, review: ReviewRow | undefined): Pick<ProcedureRecord, 'retakes'> {
  if (!review) return {};
  const retakes: NonNullable<ProcedureRecord['retakes']> = {};
  for (const kind of PHOTO_KINDS) {
    const reason = review[`${kind}_review`];
    if (row[`${kind}_photo_id`] === null && (reason === 'ilegible' || reason === 'no_corresponde')) {
      retakes[kind] = { reason, note: review[`${kind}_review_note`] };
    }
  }
  return Object.keys(retakes).length > 0 ? { retakes } : {};
}

/**
 * What a record looks like to the browser: no search text, no internal ids beyond its own. `review`:
 * its review columns, which a list reads only for the records that await a retake (awaitsRetakeSql).
 */
export function presentListedRecord(row: ListedRow, review: ReviewRow | undefined): ProcedureRecord {
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
    ...retakesOf(row, review),
    validated: row.completed === 1,
    votedBy: row.voted_by,
    validatedBy: row.completed === 1 ? row.validated_by : null,
    voteCorrected: row.voted_at !== null && row.vote_revision > 1,
    code: row.short_code ?? '',
  };
}

/** One record, read whole, as the browser sees it. */
export const presentRecord = (row: RecordRow): ProcedureRecord => presentListedRecord(row, row);

/**
 * A record as its card shows it where SMS votes are off: without its code, so no card offers a
 * 'Código SMS' nobody can use (the code stays in the database, for the day SMS is turned on).
 */
export function withSmsCode<T extends { record?: ProcedureRecord }>(body: T, smsVotes: boolean): T {
  if (smsVotes || !body.record) return body;
  return { ...body, record: { ...body.record, code: '' } };
}

/**
 * Why a vote or photo for a record that is not pending is refused: voided by the coordination (409,
 * saying when: a retry can never succeed), or not in the department at all (the 404 of any unknown
 * record).
 */
export async function notPendingRefusal(db: Db, departmentId: number, recordId: number) {
  const voidedAt = await createRecordsRepository(db).voidedAt(departmentId, recordId);
  return voidedAt
    ? new Refusal('voided', recordMessages.voidedMeanwhile(voidedAt))
    : new Refusal('not_found', recordMessages.recordNotFound);
}

/**
 * The municipality or parish a validator works on. Staff pages (Resultados, Notas, Agenda) hold no
 * records: they answer the same 404 as an unknown or forbidden department.
 */
export async function requireValidationDepartment(
  db: Db,
  user: SessionUser | null,
  slug: string,
): Promise<{ id: number; slug: string; title: string }> {
  const department = await requireDepartmentAccess(db, user, slug);
  if (department.kind !== 'municipality') throw new Refusal('not_in_your_departments', messages.api.notFound);
  return department;
}

/** The municipality or parish a record is put in, by its slug: 400 when there is none. */
export async function requireMunicipality(db: Db, slug: string): Promise<MunicipalityRow> {
  const department = await createRecordsRepository(db).findMunicipality(slug);
  if (!department) throw BadRequest(recordFieldMessages.unknownDepartment);
  return department;
}
