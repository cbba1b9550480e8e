/** Tables of the idempotency keys (migration 007-idempotency). */
export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}

/** One request that carried an `Idempotency-Key`, and the answer it got. */
export interface IdempotencyKeysTable {
  /** The item key (the `Idempotency-Key` header: a UUID made on the phone when the vote or photo was taken; migration 038). */
  item_key: string;
  /** Who sent it: someone else's key is never answered from here. */
  actor_email: string;
  /** sha256 of what was asked (route, target and body): the same key with another request is refused. */
  fingerprint: string;
  status_code: number;
  /** The JSON answer, as first sent. */
  response_body: string;
  created_at: string;
  expires_at: string;
}
