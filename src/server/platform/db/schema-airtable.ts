import type { Generated } from 'kysely';

/** Tables of the Airtable adapter (migration 005-airtable). */
export interface AirtableTables {
  airtable_outbox: AirtableOutboxTable;
}

/** The Airtable fields Comando writes back. */
export type AirtableOutboxField = 'voto' | 'gobernador' | 'an' | 'clez';

/**
 * pending: waiting to be sent (or to be retried at `next_attempt_at`); sent: Airtable acknowledged it;
 * superseded: a newer change of the same field was queued before this one left; failed: Airtable
 * refused it for good (unknown record, field of another type), kept for the operator.
 */
export type AirtableOutboxState = 'pending' | 'sent' | 'superseded' | 'failed';

/** One change of one field of one Airtable record, waiting until Airtable acknowledged it. */
export interface AirtableOutboxTable {
  id: Generated<number>;
  record_id: number;
  /** The Airtable record id (`rec…`). */
  airtable_id: string;
  field: AirtableOutboxField;
  value: string;
  /** What changed, once: `vote:<record id>` or `photo:<photo id>`. Queuing it twice is a no-op. */
  change_key: string;
  state: AirtableOutboxState;
  attempts: number;
  next_attempt_at: string;
  /** A worker that took the row to send it holds it until then (several instances never both send). */
  lease_until: string | null;
  lease_owner: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}
