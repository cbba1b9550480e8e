/**
 * Tables of the election day (migrations 024-election, 025-late-arrivals-and-drill, 033-close-stamps and
 * 037-eras-and-bound-keys).
 */
import type { ColumnType, Generated } from 'kysely';

export interface ElectionTables {
  election: ElectionTable;
  election_heard_keys: ElectionHeardKeysTable;
  election_late_arrivals: ElectionLateArrivalsTable;
  election_drill_items: ElectionDrillItemsTable;
  election_close_snapshots: ElectionCloseSnapshotsTable;
  election_eras: ElectionErasTable;
}

/**
 * The day's phase: at most one row (id 1). No row is 'preparacion', as a new database starts
 * (docs/decisions/078).
 */
export interface ElectionTable {
  id: number;
  /** 'preparacion' | 'simulacro' | 'en_curso' | 'cerrada' */
  phase: string;
  /** The close set in advance: from this instant on, 'en_curso' reads as closed at it. */
  closes_at: string | null;
  /** When the day was closed by hand (phase 'cerrada'). */
  closed_at: string | null;
  /** Hours after the close during which items reported before it are still accepted. */
  grace_hours: number;
  changed_at: string;
  changed_by: string | null;
  reason: string | null;
  /**
   * The era the day is in (decision 094): a new one when a drill starts and when it ends. Phones stamp it
   * on each item they capture. Null until the first drill.
   */
  era: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Every era a drill was, and when it ended: an item stamped with one after it ended is never real. */
export interface ElectionErasTable {
  era: string;
  /** 1: a drill's era. */
  drill: number;
  started_at: string;
  ended_at: string | null;
}

/**
 * An Idempotency-Key a phone's field report named, and when the server first heard of it, bound to what
 * the phone captured under it (decision 094): its person, record, slot, content and era.
 */
export interface ElectionHeardKeysTable {
  item_key: string;
  user_email: string;
  heard_at: string;
  record_id: number | null;
  /** 'vote' or a photo kind. */
  kind: string | null;
  /** The ballot's codes ('vote:FA,LC') or the photo's SHA-256. */
  fingerprint: string | null;
  /** The era the phone stamped on it when it was captured. */
  era: string | null;
}

/** A vote or photo accepted after the close because a phone had reported its key before it. */
export interface ElectionLateArrivalsTable {
  item_key: string;
  kind: string;
  department_slug: string;
  record_id: number;
  user_email: string;
  arrived_at: string;
  /** The close it came after. */
  closed_at: string;
}

/** A vote or photo made during the drill, and its record as it was before it. */
export interface ElectionDrillItemsTable {
  id: Generated<number>;
  /** 'vote' or a photo kind. */
  kind: string;
  record_id: number;
  /** The photo's row, for a photo. */
  photo_id: number | null;
  /** Its Idempotency-Key, if it came with one. */
  item_key: string | null;
  record_revision: number;
  record_updated_at: string;
  made_at: string;
  /** When 'Terminar simulacro' erased it. */
  erased_at: string | null;
}

/**
 * The counts at a close, taken before anything arrives after it: the result counters as JSON
 * (`{ ballots: [{ department_id, ballots }], candidates: [{ department_id, candidate_id, votes }] }`).
 */
export interface ElectionCloseSnapshotsTable {
  closed_at: string;
  taken_at: string;
  counts: string;
  /** The authority's time-stamp of the chain's head at the close (DER, base64; migration 033, decision 088). */
  stamp: ColumnType<string | null, string | null | undefined, string | null>;
  stamped_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** While there is no stamp: when it was last asked for, and why it failed. */
  stamp_tried_at: ColumnType<string | null, string | null | undefined, string | null>;
  stamp_error: ColumnType<string | null, string | null | undefined, string | null>;
}
