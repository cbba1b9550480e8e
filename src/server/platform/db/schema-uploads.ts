/** Tables of field validation, part 2 (migration 012-field-validation). */
export interface FieldTables {
  resumable_uploads: ResumableUploadsTable;
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
