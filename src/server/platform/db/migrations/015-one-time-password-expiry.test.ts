import { type Kysely, Migrator, sql } from 'kysely';
import { expect, it } from 'vitest';
import { createTestDb } from '#server/testing/test-app';
import { migrationProvider } from './index';

it('gives a one-time password handed over before the upgrade 72 hours from then, and none to own passwords', async () => {
  const testDb = await createTestDb();
  try {
    const { db } = testDb;
    const migrator = new Migrator({ db: db.kysely, provider: migrationProvider(db.dialect) });
    expect((await migrator.migrateTo('013-trusted-devices')).error).toBeUndefined();
    const k = db.kysely as unknown as Kysely<unknown>;
    const at = '2026-11-20T10:00:00.000Z';
    for (const [email, mustChange] of [
      ['nueva@example.org', 1],
      ['ana@example.org', 0],
    ] as const) {
      await sql`insert into users (email, password_hash, role, disabled, must_change_password, created_at, updated_at)
        values (${email}, 'x', 'staff', 0, ${mustChange}, ${at}, ${at})`.execute(k);
    }
    const before = Date.now();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await db.kysely
      .selectFrom('users')
      .select(['email', 'password_expires_at'])
      .orderBy('email')
      .execute();
    expect(rows[0]).toEqual({ email: 'ana@example.org', password_expires_at: null });
    const expiresAt = Date.parse(rows[1]?.password_expires_at ?? '');
    expect(expiresAt - before).toBeGreaterThanOrEqual(72 * 60 * 60 * 1000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(72 * 60 * 60 * 1000);
  } finally {
    await testDb.destroy();
  }
});
