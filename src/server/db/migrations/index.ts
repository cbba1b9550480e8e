import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../database';
import { initial } from './001-initial';

/** Every migration, in order. Names never change once released. */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '001-initial': initial(dialect),
  };
  return { getMigrations: async () => migrations };
}
