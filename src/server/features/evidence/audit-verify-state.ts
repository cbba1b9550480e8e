import { quarterOf } from '#server/core/records/records.repository';
import { timestampImprint } from '#server/platform/timestamp/timestamp';
import { ELECTION_PHASE_LABELS, type ElectionPhase } from '#shared/features/election/election';
import type { ChainRow, CloseSnapshotState, EvidenceRepository, RecordState } from './evidence.repository';

/*
 * What `audit:verify` checks beyond the votes and photos (decision 095): the counters people read, the
 * counts kept at each close and their time-stamps, and the day's phase, each recomputed from what the
 * chain vouches for.
 * - Counters: recounted from the records' rows as read by the check, each of which the check has
 *   compared with the chain (vote, time of the vote, voided, whether its vote counts, photos), so a
 *   counter that differs from the recount was changed around the chain.
 * - A close's counts: recounted from the chain alone, as it stood at the head the counts name.
 * - The phase: replayed from the chain's `election.*` rows, from its first one on.
 */

/** What the chain says about one record. */
export interface Expected {
  department: string | null;
  /** undefined: the chain never saw a vote; null: cleared. */
  codes?: string[] | null;
  /** When the vote the chain saw was cast (its row's `at`); null once cleared. */
  votedAt?: string | null;
  /** Voided ('record.void') or back ('record.restore'); a record is created pending. */
  voided: boolean;
  /** Whether its vote counts in the results: only a void "whose vote no longer counts" takes it out. */
  counted: boolean;
  photos: Partial<
    Record<'gobernador' | 'an' | 'clez', { photoId: number; sha256?: string; sizeBytes?: number; seq: number }>
  >;
  /** Every photo the chain named for the record, current or replaced. */
  photoIds: number[];
}

/** A counter's value, expected and kept, by a Spanish name: 'cabimas, votos de FA'. */
type Tally = Map<string, number>;
const add = (tally: Tally, key: string, by = 1) => tally.set(key, (tally.get(key) ?? 0) + by);

/** The counters recounted from the records as the check reads them, page by page. */
export class CounterRecount {
  readonly expected: Tally = new Map();

  /** Adds one record, its ballot rows (candidate codes) and how many photo rows it has. */
  add(record: RecordState, ballot: readonly string[], photoRows: number): void {
    const dep = record.department_slug;
    if (record.status === 'pendiente') {
      add(this.expected, label.pending(dep));
      if (record.voted_at !== null) add(this.expected, label.votedProgress(dep));
      if (record.completed === 1) add(this.expected, label.validated(dep));
    }
    if (record.vote_counted === 1) {
      const when = record.voted_at === null ? undefined : quarterOf(record.voted_at);
      if (when) add(this.expected, label.ballots(dep));
      for (const code of ballot) {
        add(this.expected, label.votes(dep, code));
        if (when) add(this.expected, label.quarter(dep, code, when.hour, when.quarter));
      }
    }
    if (photoRows > 0) add(this.expected, label.photos(dep), photoRows);
  }
}

const label = {
  ballots: (dep: string) => `${dep}, boletas contadas`,
  votes: (dep: string, code: string) => `${dep}, votos de ${code}`,
  quarter: (dep: string, code: string, hour: string, quarter: number) =>
    `${dep}, votos de ${code} en el cuarto de hora ${hour}:${String(quarter * 15).padStart(2, '0')} (UTC)`,
  pending: (dep: string) => `${dep}, trámites pendientes`,
  votedProgress: (dep: string) => `${dep}, trámites votados (avance)`,
  validated: (dep: string) => `${dep}, trámites validados`,
  photos: (dep: string) => `${dep}, fotos recibidas`,
};

/** Every difference between two tallies, as 'name: kept k, the chain gives e'. */
function differences(kept: Tally, expected: Tally): { name: string; kept: number; expected: number }[] {
  const out: { name: string; kept: number; expected: number }[] = [];
  for (const name of new Set([...kept.keys(), ...expected.keys()])) {
    const k = kept.get(name) ?? 0;
    const e = expected.get(name) ?? 0;
    if (k !== e) out.push({ name, kept: k, expected: e });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

type Names = Awaited<ReturnType<EvidenceRepository['names']>>;
const nameOf = (map: Map<number, string>, id: number) => map.get(id) ?? `#${id}`;

/** The counters as kept against the recount: one message per counter that differs. */
export async function compareCounters(
  repo: EvidenceRepository,
  names: Names,
  recount: CounterRecount,
): Promise<string[]> {
  const kept: Tally = new Map();
  const c = await repo.counters();
  const dep = (id: number) => nameOf(names.departments, id);
  const code = (id: number) => nameOf(names.candidates, id);
  for (const r of c.ballots) add(kept, label.ballots(dep(r.department_id)), Number(r.value));
  for (const r of c.candidates) add(kept, label.votes(dep(r.department_id), code(r.candidate_id)), Number(r.value));
  for (const r of c.quarters) {
    add(kept, label.quarter(dep(r.department_id), code(r.candidate_id), r.hour, Number(r.quarter)), Number(r.value));
  }
  for (const r of c.progress) {
    add(kept, label.pending(dep(r.department_id)), Number(r.total));
    add(kept, label.votedProgress(dep(r.department_id)), Number(r.voted));
    add(kept, label.validated(dep(r.department_id)), Number(r.validated));
  }
  for (const r of c.photos) add(kept, label.photos(dep(r.department_id)), Number(r.value));
  return differences(kept, recount.expected).map(
    (d) => `Contador ${d.name}: guarda ${d.kept} y la cadena da ${d.expected}.`,
  );
}

/** The result counts as the chain says they stand: ballots and votes per department, of counted votes. */
export function closeTally(expected: Map<number, Expected>): Tally {
  const tally: Tally = new Map();
  for (const entry of expected.values()) {
    if (entry.codes == null || !entry.counted) continue;
    const dep = entry.department ?? '?';
    add(tally, label.ballots(dep));
    for (const code of entry.codes) add(tally, label.votes(dep, code));
  }
  return tally;
}

interface KeptCounts {
  ballots?: { department_id: number; ballots: number }[];
  candidates?: { department_id: number; candidate_id: number; votes: number }[];
  chainHead?: { seq: number; hash: string } | null;
}

/** The chain's place each close's counts were taken at (read before the walk, to take the chain's count there). */
export function closeHeads(snapshots: readonly CloseSnapshotState[]): Set<number> {
  const seqs = new Set<number>();
  for (const s of snapshots) {
    const head = parseCounts(s)?.chainHead;
    if (head) seqs.add(Number(head.seq));
  }
  return seqs;
}

function parseCounts(snapshot: CloseSnapshotState): KeptCounts | undefined {
  try {
    return JSON.parse(snapshot.counts) as KeptCounts;
  } catch {
    return undefined;
  }
}

/**
 * Each close: its counts against the chain's count at the head they name, that head against the chain,
 * and its time-stamp against that head (the stamp's imprint must be the head's hash, and the chain must
 * still have that hash at that place: a chain rewritten after a stamped close fails here).
 */
export function compareCloses(
  snapshots: readonly CloseSnapshotState[],
  atHead: Map<number, { hash: string; tally: Tally }>,
  lastSeq: number,
  names: Names,
): string[] {
  const out: string[] = [];
  for (const snapshot of snapshots) {
    const close = `El cierre de las ${snapshot.closed_at}`;
    const counts = parseCounts(snapshot);
    if (!counts) {
      out.push(`${close}: sus conteos guardados no se pueden leer.`);
      continue;
    }
    const head = counts.chainHead;
    if (!head) {
      out.push(`${close} no nombra la cabeza de la cadena en la que se tomaron sus conteos.`);
      continue;
    }
    const seq = Number(head.seq);
    const chain = atHead.get(seq);
    if (snapshot.stamp !== null) {
      const stamped = timestampImprint(Buffer.from(snapshot.stamp, 'base64'));
      if (!stamped) {
        out.push(`${close}: su sello de tiempo no se puede leer.`);
      } else if (stamped.digestHex !== head.hash) {
        out.push(
          `${close}: su sello de tiempo (${stamped.genTime}) sella el hash ${stamped.digestHex}, no el de la cabeza ` +
            `que nombra (registro ${seq}, ${head.hash}).`,
        );
      } else if (chain && chain.hash !== head.hash) {
        out.push(
          `${close}: su sello de tiempo (${stamped.genTime}) sella la cabeza ${seq} con hash ${head.hash} y la cadena ` +
            `tiene hoy otro en el registro ${seq} (${chain.hash}): la cadena se reescribió después del sello.`,
        );
      }
    }
    if (seq > lastSeq || (seq > 0 && !chain)) {
      out.push(`${close} nombra el registro ${seq} de la cadena, y la cadena termina en el ${lastSeq}.`);
      continue;
    }
    if (!chain) continue;
    if (snapshot.stamp === null && chain.hash !== head.hash) {
      out.push(
        `${close} se tomó con la cabeza ${seq} de hash ${head.hash} y la cadena tiene hoy otro en ese registro (${chain.hash}).`,
      );
    }
    const kept: Tally = new Map();
    for (const b of counts.ballots ?? [])
      add(kept, label.ballots(nameOf(names.departments, b.department_id)), Number(b.ballots));
    for (const c of counts.candidates ?? []) {
      add(
        kept,
        label.votes(nameOf(names.departments, c.department_id), nameOf(names.candidates, c.candidate_id)),
        Number(c.votes),
      );
    }
    for (const d of differences(kept, chain.tally)) {
      out.push(`${close}, ${d.name}: guarda ${d.kept} y la cadena da ${d.expected} (en el registro ${seq}).`);
    }
  }
  return out;
}

/** The day's phase as the chain's `election.*` rows leave it; undefined fields: the chain does not say. */
export interface ExpectedDay {
  seq: number;
  phase?: string;
  closesAt?: string | null;
  closedAt?: string | null;
}

const details = (row: ChainRow): Record<string, unknown> => {
  try {
    const value = row.details ? JSON.parse(row.details) : null;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** Folds one chained row into the day's phase as the chain says it (decision 078's changes of phase). */
export function replayDay(day: ExpectedDay | undefined, row: ChainRow): ExpectedDay | undefined {
  const seq = Number(row.seq);
  const d = details(row);
  switch (row.action) {
    case 'election.phase':
    case 'election.reopen': {
      const from = typeof d.from === 'string' ? d.from : undefined;
      const to = typeof d.to === 'string' ? d.to : undefined;
      if (!to) return day;
      // Closing or reopening ends a close set in advance; any other change keeps it.
      const ends = to === 'cerrada' || from === 'cerrada';
      return {
        seq,
        phase: to,
        closesAt: ends ? null : day?.closesAt,
        closedAt: to === 'cerrada' ? row.at : null,
      };
    }
    case 'election.close_time': {
      const closesAt = typeof d.closesAt === 'string' ? d.closesAt : null;
      // Once closed (by hand, or by a close set in advance that has come), the close set stays.
      const closed =
        day?.phase === 'cerrada' || (day?.phase === 'en_curso' && day.closesAt != null && day.closesAt <= row.at);
      return { ...day, seq, closesAt: closed ? day?.closesAt : closesAt };
    }
    case 'election.drill_end':
      return { ...day, seq, phase: 'preparacion', closedAt: null };
    default:
      return day;
  }
}

const phaseName = (phase: string | null | undefined) =>
  phase == null ? 'ninguna' : `«${ELECTION_PHASE_LABELS[phase as ElectionPhase] ?? phase}»`;

/** The day's row against what the chain says of it. */
export function compareDay(
  stored: { phase: string; closes_at: string | null; closed_at: string | null } | undefined,
  day: ExpectedDay | undefined,
): string[] {
  if (!day) return [];
  const out: string[] = [];
  const where = `(la cadena, registro ${day.seq})`;
  const phase = stored?.phase ?? 'preparacion';
  if (day.phase !== undefined && phase !== day.phase) {
    out.push(`Jornada: la fase guardada es ${phaseName(phase)} y la cadena dice ${phaseName(day.phase)} ${where}.`);
  }
  if (day.closedAt !== undefined && (stored?.closed_at ?? null) !== day.closedAt) {
    out.push(
      `Jornada: el cierre guardado es ${stored?.closed_at ?? 'ninguno'} y la cadena dice ${day.closedAt ?? 'ninguno'} ${where}.`,
    );
  }
  if (day.closesAt !== undefined && (stored?.closes_at ?? null) !== day.closesAt) {
    out.push(
      `Jornada: el cierre programado guardado es ${stored?.closes_at ?? 'ninguno'} y la cadena dice ${day.closesAt ?? 'ninguno'} ${where}.`,
    );
  }
  return out;
}
