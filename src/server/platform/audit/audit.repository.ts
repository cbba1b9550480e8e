import type { Kysely, Selectable } from 'kysely';
import type { AuditLogTable, Database } from '#server/platform/db/schema';
import { auditRowHash, GENESIS_HASH } from './audit-chain';

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

/**
 * Appends one row to the audit log, chained to the row before it (docs/decisions/073). Accepts the app's
 * database (the row gets a transaction of its own) or an open transaction (it commits with it).
 */
export async function writeAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  if (!db.isTransaction) return db.transaction().execute((trx) => appendAudit(trx, entry));
  return appendAudit(db, entry);
}

async function appendAudit(trx: Kysely<Database>, entry: AuditEntry): Promise<void> {
  const content = {
    at: (entry.at ?? new Date()).toISOString(),
    actor_email: cut(entry.actorEmail, 320),
    action: entry.action.slice(0, 100),
    department_slug: cut(entry.departmentSlug, 100),
    target: cut(entry.target, 2000),
    ip: cut(entry.ip, 100),
    details:
      entry.details == null ? null : typeof entry.details === 'string' ? entry.details : JSON.stringify(entry.details),
  };
  // Taking the next place locks the head row until this transaction ends: appends from every instance
  // wait here in turn, so each row links to the one committed before it and the chain never forks.
  let head = await takeNextPlace(trx);
  if (!head) {
    await startHead(trx);
    head = await takeNextPlace(trx);
  }
  if (!head) throw new Error('audit chain head missing');
  const link = { seq: Number(head.seq), prev_hash: head.hash };
  const hash = auditRowHash({ ...content, ...link });
  await trx
    .insertInto('audit_log')
    .values({ ...content, ...link, hash })
    .execute();
  await trx.updateTable('audit_chain_head').set({ hash }).where('id', '=', 1).execute();
}

const takeNextPlace = (trx: Kysely<Database>) =>
  trx
    .updateTable('audit_chain_head')
    .set((eb) => ({ seq: eb('seq', '+', 1) }))
    .where('id', '=', 1)
    .returning(['seq', 'hash'])
    .executeTakeFirst();

/**
 * Makes the head row when there is none (a database emptied table by table): from the last chained
 * row, or the genesis of an empty log. Two instances doing it at once make one; the other waits for it.
 */
async function startHead(trx: Kysely<Database>): Promise<void> {
  const last = await trx
    .selectFrom('audit_log')
    .select(['seq', 'hash'])
    .where('seq', 'is not', null)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  await trx
    .insertInto('audit_chain_head')
    .values({ id: 1, seq: Number(last?.seq ?? 0), hash: last?.hash ?? GENESIS_HASH })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** The chain's head: the place and hash of the last row appended (inside a change, as that change sees it). */
export async function readChainHead(db: Kysely<Database>): Promise<{ seq: number; hash: string } | null> {
  const head = await db.selectFrom('audit_chain_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirst();
  return head ? { seq: Number(head.seq), hash: head.hash } : null;
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
