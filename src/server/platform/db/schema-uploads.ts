import type { ColumnType, Generated } from 'kysely';

/** Tables of field validation (migrations 012-field-validation and 014-field-reports). */
export interface FieldTables {
  resumable_uploads: ResumableUploadsTable;
  field_reporters: FieldReportersTable;
  field_devices: FieldDevicesTable;
  field_items: FieldItemsTable;
}

/** Per person, the field reports counted in the current minute (docs/decisions/060). */
export interface FieldReportersTable {
  user_email: string;
  window_started_at: string;
  reports_in_window: number;
}

/** The last report of one person's phone about its outbox (docs/decisions/060). Times are the server's. */
export interface FieldDevicesTable {
  user_email: string;
  /** A UUID the phone made once and keeps. */
  device_id: string;
  /** sha256 of the session that wrote the row: another live session cannot write it. */
  session_hash: string;
  reported_at: string;
  last_success_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  /** The database epoch the phone last checked its items against (decision 135); null: not said. */
  checked_epoch: number | null;
  /** Items the phone sent again because the restored server lacked them. */
  resent_items: Generated<number>;
  /** Of those, the ones still on the phone waiting to go. */
  held_from_before: Generated<number>;
}

/** One item a phone said was waiting: its Idempotency-Key, record and slot ('vote' or a photo kind). */
export interface FieldItemsTable {
  user_email: string;
  device_id: string;
  item_key: string;
  department_id: number;
  record_id: number;
  kind: 'vote' | 'gobernador' | 'an' | 'clez';
  waiting_since: string;
}

/** A ballot photo on its way through the tus protocol (docs/decisions/046). */
export interface ResumableUploadsTable {
  /** The tus upload id (the last part of its URL), also the name of its file while it is received. */
  id: string;
  owner_email: string;
  department_slug: string;
  record_id: number;
  /** The photo slot: gobernador, an or clez. */
  kind: string;
  /** The photo's item key: every request of the upload carries it; the stored photo's answer is kept under it (migration 038). */
  item_key: string;
  /** Upload-Length: the whole file, declared when the upload was created. */
  size_bytes: number;
  /** Set with stored_at, in the photo's transaction. */
  sha256: string | null;
  /** When the photo was stored; until then the upload is unfinished (or finished and not yet accepted). */
  stored_at: string | null;
  created_at: string;
  /** After this instant an upload is removed, bytes and all (the sweep). */
  expires_at: string;
  /** The era it was begun in, when that was a drill's (decision 094), or the era its phone stamped. */
  era: ColumnType<string | null, string | null | undefined, string | null>;
}
