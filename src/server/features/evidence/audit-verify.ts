import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { auditRowHash, GENESIS_HASH } from '#server/platform/audit/audit-chain';
import type { Database } from '#server/platform/db/schema';
import type { PhotoStorage } from '#server/platform/storage/photo-storage';
import {
  CounterRecount,
  closeHeads,
  closeTally,
  compareCloses,
  compareCounters,
  compareDay,
  type Expected,
  type ExpectedDay,
  replayDay,
} from './audit-verify-state';
import { type ChainRow, createEvidenceRepository, type RecordState } from './evidence.repository';

/*
 * `audit:verify` (docs/decisions/073): walks the chain, then replays it against the tables.
 * - The chain: every row in its place (seq 1, 2, … without gaps), linked to the hash of the row before,
 *   with the hash of its own content; the head row names the last one. A row changed, removed or added
 *   around the chain is named by its place.
 * - The replay: what the chain says each record's vote is (`record.vote`, `record.vote.correct`) and which
 *   photo fills each slot (`photo.upload`, `photo.replace`, with the SHA-256 and size of the file), against
 *   the record's vote, its ballot rows, its photo slots, the photos' rows and the stored files' bytes;
 *   and what it says of each record's state (voided, its vote counting, when it was cast).
 * - What people read (decision 095): every counter, each close's kept counts and time-stamp, and the
 *   day's phase, recomputed from what the chain vouches for (audit-verify-state.ts).
 */

const PAGE = 2_000;
const KINDS = ['gobernador', 'an', 'clez'] as const;
type Kind = (typeof KINDS)[number];

/**
 * chain: the links; vote, photo, record: a record against the chain; counter: a counter against the
 * recount; close: a close's counts or its time-stamp; election: the day's phase.
 */
export type ProblemKind = 'chain' | 'vote' | 'photo' | 'record' | 'counter' | 'close' | 'election';

export interface Problem {
  kind: ProblemKind;
  /** The chain's place the problem is at (chain problems). */
  seq?: number;
  recordId?: number;
  department?: string;
  message: string;
}

export interface VerifyReport {
  ok: boolean;
  /** Chained rows read, and the last place and hash of the chain as read. */
  rows: number;
  lastSeq: number;
  lastHash: string;
  /** Up to which place every link holds (0 when the first one is broken). */
  verifiedUpTo: number;
  records: number;
  photosChecked: number;
  problems: Problem[];
}

const sameCodes = (a: readonly string[] | null, b: readonly string[] | null) =>
  (a === null) === (b === null) && [...(a ?? [])].sort().join(',') === [...(b ?? [])].sort().join(',');

const showCodes = (codes: readonly string[] | null | undefined) =>
  codes == null ? 'sin voto' : codes.length === 0 ? 'voto sin candidatos' : codes.join(', ');

function parseDetails(row: ChainRow): Record<string, unknown> {
  try {
    const value = row.details ? JSON.parse(row.details) : null;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const codesIn = (value: unknown): string[] | null | undefined =>
  value === null ? null : Array.isArray(value) ? value.filter((c): c is string => typeof c === 'string') : undefined;

/**
 * Folds one chained row into what the chain says about its record. `beforeDrill` keeps what the chain
 * said of each record before its first drill vote or photo: 'Terminar simulacro' (`election.drill_end`)
 * puts every such record back to it, as the erasure does to the tables (decision 079).
 */
function replay(expected: Map<number, Expected>, beforeDrill: Map<number, Expected | undefined>, row: ChainRow): void {
  if (row.action === 'election.drill_end') {
    for (const [id, before] of beforeDrill) {
      if (before) expected.set(id, before);
      else expected.delete(id);
    }
    beforeDrill.clear();
    return;
  }
  const match = /^record:(\d+)$/.exec(row.target ?? '');
  if (!match) return;
  const id = Number(match[1]);
  const details = parseDetails(row);
  if (details.drill === true && !beforeDrill.has(id)) beforeDrill.set(id, structuredClone(expected.get(id)));
  const entry: Expected = expected.get(id) ?? {
    department: row.department_slug,
    photos: {},
    photoIds: [],
    voided: false,
    counted: true,
  };
  entry.department = row.department_slug ?? entry.department;
  if (row.action === 'record.vote') {
    const codes = codesIn(details.candidates);
    if (codes !== undefined) {
      entry.codes = codes;
      entry.votedAt = codes === null ? null : row.at;
    }
  } else if (row.action === 'record.vote.correct') {
    const after = details.after as Record<string, unknown> | undefined;
    const codes = codesIn(after?.candidates);
    if (codes !== undefined) entry.codes = codes;
    // A correction keeps when the vote was cast; clearing it unvotes the record.
    if (codes === null) entry.votedAt = null;
  } else if (row.action === 'record.void') {
    entry.voided = true;
    // A voided vote leaves the results only when the admin said it no longer counts.
    if (details.voted === true) entry.counted = details.voteCounts !== false;
  } else if (row.action === 'record.restore') {
    entry.voided = false;
    entry.counted = true;
  } else if (row.action === 'photo.review') {
    // 'Ilegible' and 'No corresponde' empty the slot (decision 134); the photo stays, as evidence.
    const verdicts = Array.isArray(details.verdicts) ? (details.verdicts as Record<string, unknown>[]) : [];
    for (const v of verdicts) {
      if (v.verdict !== 'conforme' && KINDS.includes(v.kind as Kind)) delete entry.photos[v.kind as Kind];
    }
  } else if (row.action === 'photo.upload' || row.action === 'photo.replace') {
    const kind = details.kind as Kind;
    if (KINDS.includes(kind) && typeof details.photoId === 'number') {
      entry.photoIds.push(details.photoId);
      entry.photos[kind] = {
        photoId: details.photoId,
        sha256: typeof details.sha256 === 'string' ? details.sha256 : undefined,
        sizeBytes: typeof details.sizeBytes === 'number' ? details.sizeBytes : undefined,
        seq: row.seq ?? 0,
      };
    }
  }
  expected.set(id, entry);
}

async function sha256Of(storage: PhotoStorage, key: string): Promise<string | undefined> {
  const file = await storage.get(key);
  if (!file) return undefined;
  const hash = createHash('sha256');
  for await (const chunk of file.stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export interface VerifyOptions {
  /** Where the photo files are: without it, the files' bytes are not read. */
  storage?: PhotoStorage;
  /** Reports each stage as it goes (the command line). */
  progress?: (line: string) => void;
}

export async function verifyAuditChain(db: Kysely<Database>, options: VerifyOptions = {}): Promise<VerifyReport> {
  const repo = createEvidenceRepository(db);
  const problems: Problem[] = [];
  const expected = new Map<number, Expected>();
  const beforeDrill = new Map<number, Expected | undefined>();
  const [names, snapshots] = await Promise.all([repo.names(), repo.closeSnapshots()]);
  // The places the closes' counts were taken at: the chain's own count is taken there on the way.
  const heads = closeHeads(snapshots);
  const atHead = new Map<number, { hash: string; tally: ReturnType<typeof closeTally> }>();
  if (heads.has(0)) atHead.set(0, { hash: GENESIS_HASH, tally: closeTally(expected) });
  let day: ExpectedDay | undefined;

  // 1. The chain, in its order.
  let rows = 0;
  let nextSeq = 1;
  let prevHash = GENESIS_HASH;
  let verifiedUpTo = 0;
  let intact = true;
  // The place of the last purge that removed the photos' files, if any.
  let filesPurgedAt: number | undefined;
  const broken = (seq: number, message: string) => {
    problems.push({ kind: 'chain', seq, message });
    intact = false;
  };
  for (let after = 0; ; ) {
    const page = await repo.chainPage(after, PAGE);
    for (const row of page) {
      const seq = Number(row.seq);
      rows += 1;
      if (seq !== nextSeq) {
        broken(
          seq,
          seq === nextSeq + 1
            ? `Falta el registro ${nextSeq} de la cadena (borrado): el ${seq} apunta a otro anterior.`
            : `Faltan los registros ${nextSeq} a ${seq - 1} de la cadena (borrados).`,
        );
      } else if (row.prev_hash !== prevHash) {
        broken(seq, `Enlace roto en el registro ${seq}: no apunta al hash del registro ${seq - 1}.`);
      }
      const own = auditRowHash({ ...row, seq, prev_hash: row.prev_hash ?? '' });
      if (own !== row.hash) {
        broken(seq, `El registro ${seq} de la cadena fue cambiado: su contenido ya no da su hash.`);
      }
      if (intact) verifiedUpTo = seq;
      prevHash = row.hash ?? '';
      nextSeq = seq + 1;
      after = seq;
      replay(expected, beforeDrill, row);
      day = replayDay(day, row);
      if (heads.has(seq)) atHead.set(seq, { hash: row.hash ?? '', tally: closeTally(expected) });
      // 'Borrar datos personales' with the photos removed: the files of photos stored before it are gone.
      if (row.action === 'records.purge' && parseDetails(row).photos === 'remove') filesPurgedAt = seq;
    }
    if (page.length < PAGE) break;
  }
  const lastSeq = nextSeq - 1;
  const head = await repo.head();
  if (head && (Number(head.seq) !== lastSeq || head.hash !== prevHash)) {
    if (Number(head.seq) > lastSeq) {
      broken(lastSeq + 1, `Faltan los registros ${lastSeq + 1} a ${head.seq} al final de la cadena (borrados).`);
    } else {
      broken(Number(head.seq) + 1, `La cadena sigue después de su último registro (${head.seq}): registros añadidos.`);
    }
  }
  for (const row of await repo.unchained(100)) {
    problems.push({
      kind: 'chain',
      message: `Registro insertado fuera de la cadena (id ${row.id}, ${row.action}${row.target ? `, ${row.target}` : ''}).`,
    });
    intact = false;
  }
  options.progress?.(`Cadena: ${rows} registros leídos.`);

  // 2. The replay against the tables, record by record.
  let records = 0;
  let photosChecked = 0;
  const seen = new Set<number>();
  const recount = new CounterRecount();
  for (let after = 0; ; ) {
    const page = await repo.recordsPage(after, PAGE);
    if (page.length === 0) break;
    const ids = page.map((r) => r.id);
    const ballots = await repo.ballotCodes(ids);
    const photoRows = await repo.photosOf(ids);
    const photos = new Map(photoRows.map((p) => [p.id, p]));
    const photosOfRecord = new Map<number, number[]>();
    for (const p of photoRows) photosOfRecord.set(p.record_id, [...(photosOfRecord.get(p.record_id) ?? []), p.id]);
    for (const record of page) {
      records += 1;
      seen.add(record.id);
      const own = photosOfRecord.get(record.id) ?? [];
      recount.add(record, ballots.get(record.id) ?? [], own.length);
      compareState(record, expected.get(record.id), own, problems);
      photosChecked += await compareRecord(record, expected.get(record.id), ballots.get(record.id) ?? [], photos, {
        problems,
        storage: options.storage,
        filesPurgedAt,
      });
    }
    after = page.at(-1)?.id ?? after;
    if (page.length < PAGE) break;
  }
  for (const [id, entry] of expected) {
    if (!seen.has(id) && (entry.codes != null || Object.keys(entry.photos).length > 0)) {
      problems.push({
        kind: 'vote',
        recordId: id,
        department: entry.department ?? undefined,
        message: `El registro ${id} tiene voto o fotos en la cadena y ya no existe.`,
      });
    }
  }
  options.progress?.(`Registros: ${records} comparados, ${photosChecked} fotos leídas.`);

  // 3. What people read: the counters, each close's counts and stamp, the day's phase.
  for (const message of await compareCounters(repo, names, recount)) problems.push({ kind: 'counter', message });
  for (const message of compareCloses(snapshots, atHead, lastSeq, names)) problems.push({ kind: 'close', message });
  for (const message of compareDay(await repo.election(), day)) problems.push({ kind: 'election', message });
  options.progress?.(`Contadores, ${snapshots.length} cierres y la fase de la jornada comparados.`);

  return {
    ok: problems.length === 0,
    rows,
    lastSeq,
    lastHash: prevHash,
    verifiedUpTo,
    records,
    photosChecked,
    problems,
  };
}

/**
 * A record's state against the chain: voided or pending, its vote counting or not, when its vote was
 * cast (the quarter of an hour it counts in), validated as its vote and photos say, and its photos' rows.
 */
function compareState(
  record: RecordState,
  expected: Expected | undefined,
  photoIds: number[],
  problems: Problem[],
): void {
  const at = { kind: 'record' as const, recordId: record.id, department: record.department_slug };
  const name = `Registro ${record.id} (${record.department_slug})`;
  const voided = expected?.voided ?? false;
  if ((record.status === 'anulado') !== voided) {
    problems.push({
      ...at,
      message: `${name}: está ${record.status === 'anulado' ? 'anulado' : 'pendiente'} y la cadena dice ${voided ? 'anulado' : 'pendiente'}.`,
    });
  }
  const counted = expected?.counted ?? true;
  if (record.voted_at !== null && (record.vote_counted === 1) !== counted) {
    problems.push({
      ...at,
      message: `${name}: su voto ${record.vote_counted === 1 ? 'cuenta' : 'no cuenta'} en los resultados y la cadena dice que ${counted ? 'cuenta' : 'no cuenta'}.`,
    });
  }
  if (expected?.votedAt !== undefined && record.vote_codes !== null && record.voted_at !== expected.votedAt) {
    problems.push({
      ...at,
      message: `${name}: su voto es de las ${record.voted_at ?? 'ninguna hora'} y la cadena dice ${expected.votedAt ?? 'sin voto'}.`,
    });
  }
  const complete =
    record.voted_at !== null &&
    record.gobernador_photo_id !== null &&
    record.an_photo_id !== null &&
    record.clez_photo_id !== null;
  if ((record.completed === 1) !== complete) {
    problems.push({
      ...at,
      message: `${name}: está ${record.completed === 1 ? 'validado' : 'sin validar'} y su voto y sus fotos dicen ${complete ? 'validado' : 'sin validar'}.`,
    });
  }
  const chainIds = expected?.photoIds ?? [];
  if (photoIds.length === 0 && chainIds.length === 0) return;
  const named = new Set(chainIds);
  const extra = photoIds.filter((id) => !named.has(id));
  if (extra.length > 0) {
    problems.push({ ...at, kind: 'photo', message: `${name}: las fotos ${extra.join(', ')} no están en la cadena.` });
  }
  const have = new Set(photoIds);
  const gone = [...named].filter((id) => !have.has(id));
  if (gone.length > 0) {
    problems.push({
      ...at,
      kind: 'photo',
      message: `${name}: faltan las filas de las fotos ${gone.join(', ')} que la cadena nombra.`,
    });
  }
}

async function compareRecord(
  record: RecordState,
  expected: Expected | undefined,
  ballot: string[],
  photos: Map<number, { sha256: string; size_bytes: number; original_key: string; record_id: number; kind: string }>,
  out: { problems: Problem[]; storage?: PhotoStorage | undefined; filesPurgedAt?: number | undefined },
): Promise<number> {
  const at = { recordId: record.id, department: record.department_slug };
  const name = `Registro ${record.id} (${record.department_slug})`;
  const chainCodes = expected?.codes ?? null;
  const stored = record.vote_codes === null ? null : record.vote_codes.split(',').filter(Boolean);
  if (!sameCodes(stored, chainCodes)) {
    out.problems.push({
      kind: 'vote',
      ...at,
      message: `${name}: su voto es «${showCodes(stored)}» y la cadena dice «${showCodes(chainCodes)}».`,
    });
  } else if (stored !== null && !sameCodes(ballot, stored)) {
    out.problems.push({
      kind: 'vote',
      ...at,
      message: `${name}: las papeletas contadas dicen «${showCodes(ballot)}» y la cadena «${showCodes(chainCodes)}».`,
    });
  }

  let read = 0;
  for (const kind of KINDS) {
    const slot = record[`${kind}_photo_id`];
    const said = expected?.photos[kind];
    if ((slot ?? null) !== (said?.photoId ?? null)) {
      out.problems.push({
        kind: 'photo',
        ...at,
        message: `${name}, foto ${kind}: ocupa el hueco la foto ${slot ?? 'ninguna'} y la cadena dice ${said?.photoId ?? 'ninguna'}.`,
      });
      continue;
    }
    if (slot === null || !said) continue;
    const photo = photos.get(slot);
    if (!photo || photo.record_id !== record.id || photo.kind !== kind) {
      out.problems.push({
        kind: 'photo',
        ...at,
        message: `${name}, foto ${kind}: la foto ${slot} no está en la base.`,
      });
      continue;
    }
    if (said.sha256 === undefined) continue;
    if (photo.sha256 !== said.sha256 || (said.sizeBytes !== undefined && photo.size_bytes !== said.sizeBytes)) {
      out.problems.push({
        kind: 'photo',
        ...at,
        message: `${name}, foto ${kind}: su fila dice SHA-256 ${photo.sha256} y la cadena ${said.sha256}.`,
      });
      continue;
    }
    if (!out.storage) continue;
    read += 1;
    const actual = await sha256Of(out.storage, photo.original_key);
    // A file removed by a later purge of personal data is missing as the chain says it should be.
    if (actual === undefined && out.filesPurgedAt !== undefined && said.seq < out.filesPurgedAt) continue;
    if (actual !== said.sha256) {
      out.problems.push({
        kind: 'photo',
        ...at,
        message:
          actual === undefined
            ? `${name}, foto ${kind}: falta el archivo de la foto ${slot}.`
            : `${name}, foto ${kind}: el archivo de la foto ${slot} cambió (SHA-256 ${actual}, la cadena dice ${said.sha256}).`,
      });
    }
  }
  return read;
}
