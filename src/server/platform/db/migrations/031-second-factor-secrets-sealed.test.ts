import { randomBytes } from 'node:crypto';
import { Migrator } from 'kysely';
import { Secret } from 'otpauth';
import { expect, it } from 'vitest';
import { secondFactorKeyOf } from '#server/platform/session/second-factor-key';
import { createUser } from '#server/testing/auth-helpers';
import { createTestDb } from '#server/testing/test-app';
import { SEALER_MISSING } from './031-second-factor-secrets-sealed';
import { migrationProvider } from './index';

const key = secondFactorKeyOf(randomBytes(32), 'entorno');

async function withSecretsStoredBefore(
  test: (
    db: Awaited<ReturnType<typeof createTestDb>>['db'],
    secrets: { confirmed: string; pending: string },
  ) => Promise<void>,
) {
  const testDb = await createTestDb();
  try {
    const { db } = testDb;
    const before = new Migrator({ db: db.kysely, provider: migrationProvider(db.dialect) });
    expect((await before.migrateTo('028-quarter-totals')).error).toBeUndefined();
    const confirmed = new Secret({ size: 20 }).base32;
    const pending = new Secret({ size: 20 }).base32;
    const ana = (await createUser(db, { email: 'ana@example.org', role: 'admin' })).id;
    const luis = (await createUser(db, { email: 'luis@example.org', role: 'staff' })).id;
    await db.kysely.updateTable('users').set({ totp_secret: confirmed }).where('id', '=', ana).execute();
    await db.kysely.updateTable('users').set({ totp_pending_secret: pending }).where('id', '=', luis).execute();
    await test(db, { confirmed, pending });
  } finally {
    await testDb.destroy();
  }
}

it('seals every TOTP secret stored before, confirmed or pending, with the key', async () => {
  await withSecretsStoredBefore(async (db, secrets) => {
    const migrator = new Migrator({
      db: db.kysely,
      provider: migrationProvider(db.dialect, { secondFactorKey: () => key }),
    });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await db.kysely
      .selectFrom('users')
      .select(['id', 'email', 'totp_secret', 'totp_pending_secret'])
      .orderBy('email')
      .execute();
    const [ana, luis] = rows;
    expect(JSON.stringify(rows)).not.toContain(secrets.confirmed);
    expect(JSON.stringify(rows)).not.toContain(secrets.pending);
    expect(ana?.totp_secret).toMatch(/^v1:/);
    expect(key.open(ana?.totp_secret as string, ana?.id as number)).toBe(secrets.confirmed);
    expect(ana?.totp_pending_secret).toBeNull();
    expect(luis?.totp_secret).toBeNull();
    expect(key.open(luis?.totp_pending_secret as string, luis?.id as number)).toBe(secrets.pending);
  });
});

it('stops, changing nothing, when there are secrets to seal and no key was given', async () => {
  await withSecretsStoredBefore(async (db, secrets) => {
    const migrator = new Migrator({ db: db.kysely, provider: migrationProvider(db.dialect) });
    const { error } = await migrator.migrateToLatest();
    expect((error as Error).message).toBe(SEALER_MISSING);
    const stored = await db.kysely
      .selectFrom('users')
      .select('totp_secret')
      .where('totp_secret', 'is not', null)
      .execute();
    expect(stored).toEqual([{ totp_secret: secrets.confirmed }]);
  });
});
