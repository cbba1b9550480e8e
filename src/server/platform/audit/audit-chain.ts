import { createHash } from 'node:crypto';

/*
 * The audit log's hash chain (docs/decisions/073). Each row holds its place in the chain (`seq`, from 1,
 * without gaps), the hash of the row before it (`prev_hash`; the genesis value for the first) and its own
 * hash: SHA-256, in lowercase hex, of the canonical encoding below. Changing, removing or inserting a row
 * breaks the link at that row; only rewriting every later row (and the head) hides it, which the hashes
 * kept outside the server (evidence packages, time-stamps) then show.
 */

/** The `prev_hash` of the chain's first row. */
export const GENESIS_HASH = '0'.repeat(64);

/** What a row's hash covers: its place, the hash before it and every column of its content, as stored. */
export interface ChainedContent {
  seq: number;
  prev_hash: string;
  at: string;
  actor_email: string | null;
  action: string;
  department_slug: string | null;
  target: string | null;
  ip: string | null;
  details: string | null;
}

/**
 * The canonical encoding: a JSON array of a version tag and the fields in a fixed order. Its members are
 * strings, one integer and nulls, for which JSON.stringify's output is exactly RFC 8785's (JCS): anyone
 * can rebuild it in another language. `details` is hashed as the text stored, not re-encoded.
 */
export function canonicalAuditRow(row: ChainedContent): string {
  return JSON.stringify([
    'comando-audit-v1',
    row.seq,
    row.prev_hash,
    row.at,
    row.actor_email,
    row.action,
    row.department_slug,
    row.target,
    row.ip,
    row.details,
  ]);
}

export function auditRowHash(row: ChainedContent): string {
  return createHash('sha256').update(canonicalAuditRow(row), 'utf8').digest('hex');
}
