import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { needsRehash, verifyPassword } from '#server/platform/session/passwords';
import {
  createUser,
  loginAs,
  sessionCookie,
  TEST_PASSWORD,
  TEST_PASSWORD_HASH,
  testPasswordHash,
} from './auth-helpers';
import { createTestApp, type TestApp } from './test-app';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('test accounts', () => {
  it('the hash made ahead of time is argon2id of the test password with the current settings', async () => {
    expect(needsRehash(TEST_PASSWORD_HASH)).toBe(false);
    expect(await verifyPassword(TEST_PASSWORD_HASH, TEST_PASSWORD)).toBe(true);
    expect(await testPasswordHash(TEST_PASSWORD)).toBe(TEST_PASSWORD_HASH);
    const other = await testPasswordHash('otra-clave-456');
    expect(await verifyPassword(other, 'otra-clave-456')).toBe(true);
    expect(needsRehash(other)).toBe(false);
  });

  it('an account of the test data signs in through the real endpoint with its password', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff', departments: ['cabimas'] });
    await createUser(t.db, { email: 'beto@example.org', role: 'staff', password: 'otra-clave-456' });
    const cookie = await loginAs(t, 'ana@example.org');
    const session = await t.request({ url: '/api/auth/session', headers: { cookie } });
    expect(session.json().user.email).toBe('ana@example.org');
    await expect(loginAs(t, 'beto@example.org')).rejects.toThrow(/401/);
    await loginAs(t, 'beto@example.org', 'otra-clave-456');
  });

  it('a session written directly is the one a good sign-in opens: cookie, last sign-in, audit row', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff', departments: ['cabimas'] });
    const cookie = await sessionCookie(t, 'Ana@Example.org');
    expect(cookie).toMatch(/^comando_sesion=[A-Za-z0-9_-]{43}$/);
    const session = await t.request({ url: '/api/auth/session', headers: { cookie } });
    expect(session.json().user).toMatchObject({ email: 'ana@example.org', role: 'staff' });
    expect(session.json().menu).toEqual([{ title: 'Cabimas', path: '/validation/cabimas' }]);
    const [audit] = await listAudit(t.db.kysely, { action: 'auth.login' });
    expect(audit).toMatchObject({ actor_email: 'ana@example.org', ip: '127.0.0.1' });
    const user = await t.db.kysely
      .selectFrom('users')
      .select('last_login_at')
      .where('email', '=', 'ana@example.org')
      .executeTakeFirstOrThrow();
    expect(user.last_login_at).not.toBeNull();
    await expect(sessionCookie(t, 'nadie@example.org')).rejects.toThrow(/No hay una cuenta activa/);
  });
});
