import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { ConfigError, loadConfig } from '#server/platform/config/config';
import {
  loadSecondFactorKey,
  SecondFactorKeyError,
  secondFactorKeyFile,
  secondFactorKeyOf,
  WRONG_KEY_MESSAGE,
} from '#server/platform/session/second-factor-key';
import { createUser, loginAs } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp, testConfig } from '#server/testing/test-app';
import { secondFactorMessages } from '#shared/features/auth/second-factor';

let t: TestApp;
afterEach(async () => t?.close());

const ADMIN = 'jefa@example.org';
const clock = { now: Date.parse('2026-11-22T12:00:00Z') };
const codeOf = (secret: string) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now });
const post = (cookie: string, url: string, payload?: object) =>
  t.request({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });

async function setup(overrides: { secondFactorKey?: string } = {}) {
  clock.now = Date.parse('2026-11-22T12:00:00Z');
  t = await createTestApp({ now: () => new Date(clock.now), ...overrides });
  await createUser(t.db, { email: ADMIN, role: 'admin' });
}

/** Every row of every table, as text: what a backup of the database would hold. */
async function dumpDatabase(): Promise<string> {
  const parts: string[] = [];
  for (const table of await t.db.kysely.introspection.getTables()) {
    const rows = await t.db.kysely
      .selectFrom(table.name as 'users')
      .selectAll()
      .execute();
    parts.push(`${table.name}: ${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

async function enrol(cookie: string): Promise<string> {
  const started = await post(cookie, '/api/auth/second-factor/enrol');
  expect(started.statusCode, started.body).toBe(200);
  return started.json().secret as string;
}

const storedSecret = async () =>
  await t.db.kysely
    .selectFrom('users')
    .select(['id', 'totp_secret'])
    .where('email', '=', ADMIN)
    .executeTakeFirstOrThrow();

describe('TOTP secrets encrypted at rest', () => {
  it('no table holds the secret, pending or confirmed, and a code still signs in', async () => {
    await setup();
    const secret = await enrol(await loginAs(t, ADMIN));
    // Pending: sealed already.
    expect(await dumpDatabase()).not.toContain(secret);
    const pending = await t.db.kysely
      .selectFrom('users')
      .select('totp_pending_secret')
      .where('email', '=', ADMIN)
      .executeTakeFirstOrThrow();
    expect(pending.totp_pending_secret).toMatch(/^v1:/);

    const cookie = await loginAs(t, ADMIN);
    expect((await post(cookie, '/api/auth/second-factor/confirm', { code: codeOf(secret) })).statusCode).toBe(200);
    const dump = await dumpDatabase();
    for (const form of [secret, secret.toLowerCase(), secret.replace(/=+$/, '')]) expect(dump).not.toContain(form);
    expect((await storedSecret()).totp_secret).toMatch(/^v1:/);
    if (t.db.dialect === 'sqlite') {
      // The file itself, as a copy of it would hold it (the WAL included).
      const files = fs.readdirSync(t.config.dataDir).filter((f) => f.startsWith('comando.sqlite'));
      for (const file of files) {
        expect(fs.readFileSync(`${t.config.dataDir}/${file}`).includes(secret)).toBe(false);
      }
    }

    clock.now += 60_000;
    const again = await loginAs(t, ADMIN);
    const verified = await post(again, '/api/auth/second-factor/verify', { code: codeOf(secret) });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().user.secondFactor).toBeUndefined();
  });

  it('the key comes from SECOND_FACTOR_KEY when given, else from a file of the data folder made once', async () => {
    const fromEnv = randomBytes(32).toString('base64');
    await setup({ secondFactorKey: fromEnv });
    expect(fs.existsSync(secondFactorKeyFile(t.config.dataDir))).toBe(false);
    const secret = await enrol(await loginAs(t, ADMIN));
    const { id, totp_secret } = await t.db.kysely
      .selectFrom('users')
      .select(['id', 'totp_pending_secret as totp_secret'])
      .where('email', '=', ADMIN)
      .executeTakeFirstOrThrow();
    expect(secondFactorKeyOf(Buffer.from(fromEnv, 'base64'), 'entorno').open(totp_secret as string, id)).toBe(secret);
    await t.close();

    await setup();
    const file = secondFactorKeyFile(t.config.dataDir);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const first = loadSecondFactorKey({ dataDir: t.config.dataDir });
    expect(first.source).toBe('carpeta de datos');
    // The same file, read again, opens what the app sealed.
    const sealed = first.seal('ABCDEFGHIJKLMNOP', 7);
    expect(loadSecondFactorKey({ dataDir: t.config.dataDir }).open(sealed, 7)).toBe('ABCDEFGHIJKLMNOP');
    // Bound to its person: another person's row does not open it.
    expect(() => first.open(sealed, 8)).toThrow(SecondFactorKeyError);
  });

  it('another key stops the start with a clear message, before anyone signs in', async () => {
    await setup();
    await enrol(await loginAs(t, ADMIN));
    const otherKey = randomBytes(32).toString('base64');
    const attempt = buildApp(testConfig({ ...t.config, secondFactorKey: otherKey }), { db: t.db, logger: false });
    await expect(attempt).rejects.toThrow(new SecondFactorKeyError(WRONG_KEY_MESSAGE));
    // The right key still starts.
    const right = await buildApp(testConfig({ ...t.config }), { db: t.db, logger: false });
    await right.close();
  });

  it('a secret another key sealed, or one stored as plain text, is a clear refusal, never read', async () => {
    await setup();
    const secret = await enrol(await loginAs(t, ADMIN));
    const cookie = await loginAs(t, ADMIN);
    expect((await post(cookie, '/api/auth/second-factor/confirm', { code: codeOf(secret) })).statusCode).toBe(200);
    const { id } = await storedSecret();
    const elsewhere = secondFactorKeyOf(randomBytes(32), 'entorno').seal(secret, id);
    for (const value of [elsewhere, secret]) {
      await t.db.kysely.updateTable('users').set({ totp_secret: value }).where('id', '=', id).execute();
      clock.now += 60_000;
      const session = await loginAs(t, ADMIN);
      const refused = await post(session, '/api/auth/second-factor/verify', { code: codeOf(secret) });
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json().message).toBe(secondFactorMessages.keyMismatch);
    }
  });

  it('SECOND_FACTOR_KEY must be 32 bytes in base64, and is never echoed', () => {
    const env = { NODE_ENV: 'test', DATA_DIR: '/tmp/comando-nada' };
    const good = randomBytes(32).toString('base64');
    expect(loadConfig({ ...env, SECOND_FACTOR_KEY: good }).secondFactorKey).toBe(good);
    expect(loadConfig(env).secondFactorKey).toBeUndefined();
    const short = randomBytes(16).toString('base64');
    expect(() => loadConfig({ ...env, SECOND_FACTOR_KEY: short })).toThrow(ConfigError);
    let message = '';
    try {
      loadConfig({ ...env, SECOND_FACTOR_KEY: short });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('SECOND_FACTOR_KEY: debe ser una clave de 32 bytes en base64 (openssl rand -base64 32)');
    expect(message).not.toContain(short);
  });
});
