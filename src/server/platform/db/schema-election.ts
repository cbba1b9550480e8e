/** Tables of the election day (migrations 024-election and 025-late-arrivals). */
export interface ElectionTables {
  election: ElectionTable;
  election_heard_keys: ElectionHeardKeysTable;
  election_late_arrivals: ElectionLateArrivalsTable;
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
}

/** An Idempotency-Key a phone's field report named, and when the server first heard of it. */
export interface ElectionHeardKeysTable {
  item_key: string;
  user_email: string;
  heard_at: string;
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
