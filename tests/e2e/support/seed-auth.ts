import type { Db } from '../../../src/server/db/database';

/** Accounts and access lists the end-to-end tests sign in with (owned by the auth feature). */
export async function seedAuthFixtures(_db: Db, _now: Date): Promise<void> {}
