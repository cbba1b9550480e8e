import type { Db } from '../../../src/server/db/database';

/** Procedure records the end-to-end tests validate (owned by the records feature). */
export async function seedRecordsFixtures(_db: Db, _now: Date): Promise<void> {}
