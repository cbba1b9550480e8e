import { type Kysely, PostgresAdapter, type Selectable } from 'kysely';
import { compiledQuery } from '#server/platform/db/compiled-query';
import { inSlices, VALUES_PER_STATEMENT } from '#server/platform/db/in-slices';
import type { AuditLogTable, Database } from '#server/platform/db/schema';
import { auditRowHash, type ChainedContent, GENESIS_HASH } from './audit-chain';

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

/** A row's content as stored, before it has its place in the chain. */
type AuditContent = Omit<ChainedContent, 'seq' | 'prev_hash'>;

function contentOf(entry: AuditEntry): AuditContent {
  return {
    at: (entry.at ?? new Date()).toISOString(),
    actor_email: cut(entry.actorEmail, 320),
    action: entry.action.slice(0, 100),
    department_slug: cut(entry.departmentSlug, 100),
    target: cut(entry.target, 2000),
    ip: cut(entry.ip, 100),
    details:
      entry.details == null ? null : typeof entry.details === 'string' ? entry.details : JSON.stringify(entry.details),
  };
}

/**
 * The rows each open change has written and that are not in the chain yet, by transaction (runChange
 * holds them, docs/decisions/088). They join the chain together just before the commit: one head update
 * and one insert per transaction, however many rows, and the head is locked only from then to the commit.
 */
const heldRows = new WeakMap<Kysely<Database>, AuditContent[]>();

/** From now on, audit rows written in `trx` are held and chained together by writeHeldAudit (runChange). */
export function holdAuditRows(trx: Kysely<Database>): void {
  heldRows.set(trx, []);
}

/** Where the rows held in `trx` stand now: given back to restoreHeldAudit when a savepoint rolls back. */
export interface HeldAuditMark {
  rows: AuditContent[];
  length: number;
}

export function heldAuditMark(trx: Kysely<Database>): HeldAuditMark | undefined {
  const rows = heldRows.get(trx);
  return rows && { rows, length: rows.length };
}

/**
 * After a rollback to a savepoint: the rows held are again those held when it was made. Rows held then and
 * chained since (someone read the head) were rolled back with the savepoint: they are held again too.
 */
export function restoreHeldAudit(trx: Kysely<Database>, mark: HeldAuditMark | undefined): void {
  if (!mark) return;
  mark.rows.length = mark.length;
  heldRows.set(trx, mark.rows);
}

/** Chains the rows held in `trx` (before its commit, or before anyone reads the chain's head in it). */
export async function writeHeldAudit(trx: Kysely<Database>): Promise<void> {
  const rows = heldRows.get(trx);
  if (!rows?.length) return;
  heldRows.set(trx, []);
  await appendRows(trx, rows);
}

/**
 * Appends one row to the audit log, chained to the row before it (docs/decisions/073). Accepts the app's
 * database (the row gets a transaction of its own) or an open transaction: inside a change the row is
 * held and chained just before the commit (writeHeldAudit), otherwise it is chained at once.
 */
export async function writeAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  const content = contentOf(entry);
  if (!db.isTransaction) return db.transaction().execute((trx) => appendRows(trx, [content]));
  const held = heldRows.get(db);
  if (held) held.push(content);
  else await appendRows(db, [content]);
}

/** Audit rows have 10 columns: this many rows per insert keeps to VALUES_PER_STATEMENT values. */
const ROWS_PER_INSERT = Math.floor(VALUES_PER_STATEMENT / 10);

async function appendRows(trx: Kysely<Database>, rows: readonly AuditContent[]): Promise<void> {
  // Taking the places locks the head row until this transaction ends: appends from every instance wait
  // here in turn, so each row links to the one committed before it and the chain never forks.
  let head = (await takePlaces(trx, rows.length))[0];
  if (!head) {
    await startHead(trx);
    head = (await takePlaces(trx, rows.length))[0];
  }
  if (!head) throw new Error('audit chain head missing');
  let seq = Number(head.seq) - rows.length;
  let hash = head.hash;
  const chained = rows.map((content) => {
    seq += 1;
    const link = { seq, prev_hash: hash };
    hash = auditRowHash({ ...content, ...link });
    return { ...content, ...link, hash };
  });
  if (trx.getExecutor().adapter instanceof PostgresAdapter && chained.length <= ROWS_PER_INSERT) {
    // PostgreSQL: the rows and the head's new hash in one statement (a data-modifying WITH), so the head
    // stays locked for one round trip less before the commit.
    await trx
      .with('chained', (db) => db.insertInto('audit_log').values(chained))
      .updateTable('audit_chain_head')
      .set({ hash })
      .where('id', '=', 1)
      .execute();
    return;
  }
  for (const slice of inSlices(chained, ROWS_PER_INSERT)) {
    await trx.insertInto('audit_log').values(slice).execute();
  }
  await setHeadHash(trx, hash);
}

/** Moves the head `count` places on and returns it (the last place taken and the hash before the first). */
const takePlaces = compiledQuery((db: Kysely<Database>, count: number) =>
  db
    .updateTable('audit_chain_head')
    .set((eb) => ({ seq: eb('seq', '+', count) }))
    .where('id', '=', 1)
    .returning(['seq', 'hash']),
);

const setHeadHash = compiledQuery((db: Kysely<Database>, hash: string) =>
  db.updateTable('audit_chain_head').set({ hash }).where('id', '=', 1),
);

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
  // Inside a change, the rows it holds are chained first: the head read is the one its commit will leave.
  if (db.isTransaction) await writeHeldAudit(db);
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
