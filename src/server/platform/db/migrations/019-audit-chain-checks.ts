import type { Kysely } from 'kysely';
import type { Dialect } from '#server/platform/db/dialect';
import { idColumn } from './helpers';

/**
 * Each check of the audit chain (`audit:verify`, or the button of Auditoría) and how it ended: Auditoría
 * shows the last one ('Cadena verificada hasta el registro n, hh:mm').
 */
export function auditChainChecksMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('audit_chain_checks'), dialect)
        .addColumn('at', 'varchar(40)', (c) => c.notNull())
        .addColumn('checked_by', 'varchar(320)', (c) => c.notNull())
        .addColumn('ok', 'integer', (c) => c.notNull())
        .addColumn('verified_up_to', 'integer', (c) => c.notNull())
        .addColumn('last_seq', 'integer', (c) => c.notNull())
        .addColumn('last_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('problems', 'integer', (c) => c.notNull())
        /** The first problems' messages, as JSON. */
        .addColumn('first_problems', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
