/** Tables of field validation, part 2 (migration 012-field-validation). */
export interface FieldTables {
  resumable_uploads: ResumableUploadsTable;
  device_reports: DeviceReportsTable;
}

/** The last report of one phone about its outbox (docs/decisions/048). Times are the server's. */
export interface DeviceReportsTable {
  /** A UUID the phone made once and keeps. */
  device_id: string;
  /** Who was signed in on it when it reported; the counts are that person's items only. */
  user_email: string;
  reported_at: string;
  waiting: number;
  oldest_waiting_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  /** JSON: [{ slug, waiting, oldestWaitingAt }] for each department with items waiting. */
  departments: string;
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
  /** Every request of the upload carries it; the stored photo's answer is kept under it. */
  idempotency_key: string;
  /** Upload-Length: the whole file, declared when the upload was created. */
  size_bytes: number;
  /** Set with stored_at, in the photo's transaction. */
  sha256: string | null;
  /** When the photo was stored; until then the upload is unfinished (or finished and not yet accepted). */
  stored_at: string | null;
  created_at: string;
  /** After this instant an upload is removed, bytes and all (the sweep). */
  expires_at: string;
}
