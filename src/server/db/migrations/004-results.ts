import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

export function resultsMigration(_dialect: Dialect) {
  return {
    async up(_db: Kysely<unknown>): Promise<void> {},
  };
}
