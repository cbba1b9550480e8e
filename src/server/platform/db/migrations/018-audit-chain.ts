import type { Kysely } from 'kysely';
import { auditRowHash, GENESIS_HASH } from '#server/platform/audit/audit-chain';
import type { Database } from '#server/platform/db/schema';

const PAGE = 1_000;

/**
 * The audit log's hash chain (docs/decisions/073): each row's place (`seq`), the hash of the row before it
 * and its own, and the head row every append updates. The rows already stored are chained here, in the
 * order they were written (by id), so the chain starts at the first row the log ever had.
 */
export function auditChainMigration() {
  return {
    async up(untyped: Kysely<unknown>): Promise<void> {
      const db = untyped as unknown as Kysely<Database>;
      // One column per statement: SQLite adds one at a time.
      await db.schema.alterTable('audit_log').addColumn('seq', 'integer').execute();
      await db.schema.alterTable('audit_log').addColumn('prev_hash', 'varchar(64)').execute();
      await db.schema.alterTable('audit_log').addColumn('hash', 'varchar(64)').execute();
      // Two rows in one place would be a fork: the database refuses the second.
      await db.schema.createIndex('audit_log_seq_idx').on('audit_log').column('seq').unique().execute();
      await db.schema
        .createTable('audit_chain_head')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('hash', 'varchar(64)', (c) => c.notNull())
        .execute();

      let seq = 0;
      let hash = GENESIS_HASH;
      let after = 0;
      for (;;) {
        const rows = await db
          .selectFrom('audit_log')
          .select(['id', 'at', 'actor_email', 'action', 'department_slug', 'target', 'ip', 'details'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(PAGE)
          .execute();
        for (const row of rows) {
          seq += 1;
          const own = auditRowHash({ ...row, seq, prev_hash: hash });
          await db.updateTable('audit_log').set({ seq, prev_hash: hash, hash: own }).where('id', '=', row.id).execute();
          hash = own;
          after = row.id;
        }
        if (rows.length < PAGE) break;
      }
      // An empty log gets its head with its first row (audit.repository.ts): migrations leave no rows.
      if (seq > 0) await db.insertInto('audit_chain_head').values({ id: 1, seq, hash }).execute();
    },
  };
}
