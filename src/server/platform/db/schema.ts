import type { Generated } from 'kysely';
import type { AirtableTables } from './schema-airtable';
import type { AuthTables } from './schema-auth';
import type { CopiesTables } from './schema-copies';
import type { ElectionTables } from './schema-election';
import type { IdempotencyTables } from './schema-idempotency';
import type { RecordsTables } from './schema-records';
import type { SmsTables } from './schema-sms';
import type { StorageTables } from './schema-storage';
import type { FieldTables } from './schema-uploads';

/**
 * Table shapes. Timestamps are ISO-8601 UTC strings and flags are 0/1 integers in both SQLite and
 * PostgreSQL, so the same queries and the same presenters serve both dialects (docs/decisions/002).
 */
export interface Database
  extends CoreTables,
    AuthTables,
    RecordsTables,
    AirtableTables,
    StorageTables,
    IdempotencyTables,
    FieldTables,
    ElectionTables,
    SmsTables,
    CopiesTables {}

export interface CoreTables {
  settings: SettingsTable;
  departments: DepartmentsTable;
  department_members: DepartmentMembersTable;
  candidates: CandidatesTable;
  agenda_events: AgendaEventsTable;
  posts: PostsTable;
  audit_log: AuditLogTable;
  audit_chain_head: AuditChainHeadTable;
  audit_chain_checks: AuditChainChecksTable;
  ready_probe: ReadyProbeTable;
}

/** One row, written by each /api/ready (a database that cannot write is not ready). */
export interface ReadyProbeTable {
  id: number;
  at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface DepartmentsTable {
  id: Generated<number>;
  slug: string;
  title: string;
  kind: 'page' | 'municipality';
  /** Menu order: the spec's order. */
  position: number;
  created_at: string;
}

export interface DepartmentMembersTable {
  department_id: number;
  /** Lowercased e-mail. */
  email: string;
  created_at: string;
}

export interface CandidatesTable {
  id: Generated<number>;
  code: string;
  name: string;
  colour: string;
  photo_url: string;
  position: number;
}

export interface AgendaEventsTable {
  id: Generated<number>;
  fecha: string;
  hora_24h: string | null;
  descripcion: string | null;
  lugar: string | null;
  /** The Airtable record it was imported from (`airtable:rec…`); null for events created here. */
  source_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface PostsTable {
  id: Generated<number>;
  title: string;
  content_html: string;
  /** The first words as plain text, for the editors' list; null on rows saved before it was kept. */
  excerpt: string | null;
  /** null while the post is a draft. */
  published_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  actor_email: string | null;
  action: string;
  department_slug: string | null;
  target: string | null;
  ip: string | null;
  details: string | null;
  /**
   * The row's place in the hash chain (from 1, no gaps), the hash of the row before it and its own
   * (platform/audit/audit-chain.ts, migration 018). Null only on rows written around the chain.
   */
  seq: number | null;
  prev_hash: string | null;
  hash: string | null;
}

/** The chain's last link, one row (id 1): every audit row takes its place by updating it (decision 073). */
export interface AuditChainHeadTable {
  id: number;
  seq: number;
  hash: string;
}

/** Each check of the audit chain and how it ended (migration 019). */
export interface AuditChainChecksTable {
  id: Generated<number>;
  at: string;
  checked_by: string;
  ok: number;
  verified_up_to: number;
  last_seq: number;
  last_hash: string;
  problems: number;
  /** JSON array of the first problems' messages. */
  first_problems: string;
}
