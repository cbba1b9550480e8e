import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema';

// Written once: a batch of votes runs them at every vote (decision 088).
const SAVEPOINT = CompiledQuery.raw('savepoint step');
const RELEASE = CompiledQuery.raw('release savepoint step');
const ROLLBACK = CompiledQuery.raw('rollback to savepoint step');

/**
 * Runs `work` inside a savepoint of the open transaction `trx`: if it throws, what it wrote is undone
 * (the rest of the transaction stays) and the error goes on to the caller.
 */
export async function inSavepoint<T>(trx: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  await trx.executeQuery(SAVEPOINT);
  try {
    const result = await work();
    await trx.executeQuery(RELEASE);
    return result;
  } catch (error) {
    await trx.executeQuery(ROLLBACK);
    await trx.executeQuery(RELEASE);
    throw error;
  }
}
