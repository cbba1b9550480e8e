import type { Kysely, Selectable } from 'kysely';
import type { AuditLogTable, Database } from '#server/platform/db/schema';

export interface AuditEntry {
  /** Who did it: a signed-in e-mail, the e-mail tried at a failed sign-in, or 'cli:<os user>'. */
  actorEmail: string | null;
  /** Dotted verb, e.g. 'auth.login', 'access.grant', 'record.vote'. */
  action: string;
  departmentSlug?: string | null;
  /** What it was done to (an e-mail, a record id...). */
  target?: string | null;
  ip?: string | null;
  /** Anything else worth keeping; objects are stored as JSON. */
  details?: string | Record<string, unknown> | null;
  /** Defaults to the current time. */
  at?: Date;
}

const cut = (value: string | null | undefined, max: number) => (value == null ? null : value.slice(0, max));

/** Appends one row to the audit log. Accepts the app's database or an open transaction. */
export async function writeAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  const details =
    entry.details == null ? null : typeof entry.details === 'string' ? entry.details : JSON.stringify(entry.details);
  await db
    .insertInto('audit_log')
    .values({
      at: (entry.at ?? new Date()).toISOString(),
      actor_email: cut(entry.actorEmail, 320),
      action: entry.action.slice(0, 100),
      department_slug: cut(entry.departmentSlug, 100),
      target: cut(entry.target, 2000),
      ip: cut(entry.ip, 100),
      details,
    })
    .execute();
}

/** An audit row as stored, every column. */
export type AuditRow = Selectable<AuditLogTable>;

/** The most recent rows first (operators and tests). */
export async function listAudit(
  db: Kysely<Database>,
  filter: { action?: string; limit?: number } = {},
): Promise<AuditRow[]> {
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.action) query = query.where('action', '=', filter.action);
  return query
    .orderBy('id', 'desc')
    .limit(filter.limit ?? 100)
    .execute();
}
