import { type Kysely, sql } from 'kysely';
import type { Database } from './schema';

/**
 * Runs `work` inside a savepoint of the open transaction `trx`: if it throws, what it wrote is undone
 * (the rest of the transaction stays) and the error goes on to the caller.
 */
export async function inSavepoint<T>(trx: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  await sql`savepoint step`.execute(trx);
  try {
    const result = await work();
    await sql`release savepoint step`.execute(trx);
    return result;
  } catch (error) {
    await sql`rollback to savepoint step`.execute(trx);
    await sql`release savepoint step`.execute(trx);
    throw error;
  }
}
