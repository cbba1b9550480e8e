import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { hashToken } from '#server/platform/session/cookie-tokens';
import { hashPassword, ONE_TIME_PASSWORD_MS } from '#server/platform/session/passwords';
import { createAuthRepository } from '#server/platform/session/session.repository';
import { createUser, loginAs, TEST_PASSWORD } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { authMessages } from '#shared/platform/session';

let t: TestApp;
afterEach(async () => t?.close());

const ADMIN = 'jefa@example.org';
const NEW_PERSON = 'nueva.validadora@example.org';

/** What a session opened with a one-time password may still ask. */
const OPEN = ['GET /api/auth/session', 'GET /api/auth/provider', 'POST /api/auth/password', 'POST /api/auth/logout'];

/** `clock`: the app's, moved by hand in the tests of expiry. */
async function setup(clock = { now: Date.parse('2026-11-22T12:00:00Z') }) {
  t = await createTestApp({ now: () => new Date(clock.now) });
  await createUser(t.db, { email: ADMIN, role: 'admin' });
  const admin = await loginAs(t, ADMIN);
  const created = await t.request({
    method: 'POST',
    url: '/api/admin/users',
    headers: { cookie: admin },
    payload: { email: NEW_PERSON, role: 'staff', departments: ['cabimas'] },
  });
  expect(created.statusCode, created.body).toBe(201);
  const oneTime = created.json().oneTimePassword as string;
  expect(oneTime).toEqual(expect.any(String));
  return { admin, oneTime, userId: created.json().user.id as number };
}

const session = async (cookie: string) => (await t.request({ url: '/api/auth/session', headers: { cookie } })).json();
/** The new password only, as the form sends it after a one-time password; `currentPassword` any other time. */
const changePassword = (cookie: string, newPassword: string, currentPassword?: string) =>
  t.request({
    method: 'POST',
    url: '/api/auth/password',
    headers: { cookie },
    payload: { newPassword, ...(currentPassword === undefined ? {} : { currentPassword }) },
  });
const login = (email: string, password: string) =>
  t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

/** Every operation of the API, from its own OpenAPI document, with made-up parameters. */
async function everyOperation(): Promise<{ op: string; url: string }[]> {
  const spec = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(spec.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map((m) => ({
        op: `${m.toUpperCase()} ${path}`,
        url: path.replace(/\{(\w+)\}/g, (_, name: string) =>
          name === 'slug' ? 'cabimas' : name === 'file' ? 'x.jpg' : '1',
        ),
      })),
  );
}

describe('one-time passwords', () => {
  it('a one-time password reaches no API but changing it: everything else answers 403 with the reason', async () => {
    const { oneTime } = await setup();
    const cookie = await loginAs(t, NEW_PERSON, oneTime);
    expect(await session(cookie)).toMatchObject({
      user: { email: NEW_PERSON, mustChangePassword: true },
      menu: [],
      home: null,
    });

    const operations = await everyOperation();
    expect(operations.length).toBeGreaterThan(40);
    const reached: string[] = [];
    for (const { op, url } of operations) {
      if (OPEN.includes(op) || op === 'POST /api/auth/login' || op === 'POST /api/auth/firebase') continue;
      const [method] = op.split(' ') as [string];
      const res = await t.request({ method: method as 'GET', url, headers: { cookie } });
      if (res.statusCode !== 403 || res.json().message !== 'Antes de continuar, elige una contraseña nueva.') {
        reached.push(`${op}: ${res.statusCode} ${res.body.slice(0, 80)}`);
      }
    }
    expect(reached).toEqual([]);
    // Its own department too, which the account is on the list of.
    const list = await t.request({ url: '/api/validation/cabimas/records', headers: { cookie } });
    expect(list.statusCode).toBe(403);
    expect((await t.request({ url: '/api/auth/provider', headers: { cookie } })).statusCode).toBe(200);
  });

  it('once changed, the account works with the new password only, and its other sessions end', async () => {
    const { oneTime } = await setup();
    const cookie = await loginAs(t, NEW_PERSON, oneTime);
    const otherDevice = await loginAs(t, NEW_PERSON, oneTime);

    // The session was opened with the one-time password: it is not asked again.
    const same = await changePassword(cookie, oneTime);
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('La contraseña nueva debe ser distinta de la actual.');
    const short = await changePassword(cookie, 'corta-123');
    expect(short.json().message).toBe('Una contraseña nueva debe tener al menos 10 caracteres.');
    const common = await changePassword(cookie, 'Password123');
    expect(common.statusCode).toBe(400);
    expect(common.json().message).toBe(
      'Esa contraseña es de las más usadas y se adivina enseguida. Elige otra menos común.',
    );

    const changed = await changePassword(cookie, 'mi-clave-nueva-2026');
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      user: { email: NEW_PERSON, mustChangePassword: false },
      home: '/validation/cabimas',
    });
    // The same session goes on, now with its department.
    expect((await t.request({ url: '/api/validation/cabimas/records', headers: { cookie } })).statusCode).toBe(200);
    expect((await session(otherDevice)).user).toBeNull();

    const oldOne = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: NEW_PERSON, password: oneTime },
    });
    expect(oldOne.statusCode).toBe(401);
    const fresh = await loginAs(t, NEW_PERSON, 'mi-clave-nueva-2026');
    expect((await session(fresh)).user).toMatchObject({ mustChangePassword: false });

    const [audit] = await listAudit(t.db.kysely, { action: 'auth.password_change' });
    expect(audit).toMatchObject({ actor_email: NEW_PERSON, target: NEW_PERSON });
    // Both sign-ins trusted their browsers; this one carries no device cookie, so none stays trusted.
    expect(JSON.parse(audit?.details as string)).toEqual({
      oneTimePassword: true,
      sessionsEnded: 1,
      devicesForgotten: 2,
    });
  });

  it('a reset with a generated password asks for a change again; one the admin chose does not', async () => {
    const { admin, oneTime, userId } = await setup();
    await changePassword(await loginAs(t, NEW_PERSON, oneTime), 'mi-clave-nueva-2026');

    const reset = await t.request({
      method: 'POST',
      url: `/api/admin/users/${userId}/password`,
      headers: { cookie: admin },
      payload: {},
    });
    const generated = reset.json().oneTimePassword as string;
    expect((await session(await loginAs(t, NEW_PERSON, generated))).user.mustChangePassword).toBe(true);

    await t.request({
      method: 'POST',
      url: `/api/admin/users/${userId}/password`,
      headers: { cookie: admin },
      payload: { password: 'elegida-por-la-jefa' },
    });
    expect((await session(await loginAs(t, NEW_PERSON, 'elegida-por-la-jefa'))).user.mustChangePassword).toBe(false);
  });

  it('any other time the current password is asked, and checked', async () => {
    await setup();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const cookie = await loginAs(t, 'ana@example.org');
    const without = await changePassword(cookie, 'mi-clave-nueva-2026');
    expect(without.statusCode).toBe(400);
    expect(without.json().message).toBe('Escribe la contraseña que usaste para entrar.');
    const wrong = await changePassword(cookie, 'mi-clave-nueva-2026', 'no-es-esta');
    expect(wrong.json().message).toBe('La contraseña actual no es correcta.');
    expect((await changePassword(cookie, 'mi-clave-nueva-2026', TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('a change of one’s own forgets every trusted browser but the one it was made on', async () => {
    await setup();
    const ana = await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const cookiesOf = (res: { cookies: { name: string; value: string }[] }) =>
      res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const phone = cookiesOf(await login('ana@example.org', TEST_PASSWORD));
    await login('ana@example.org', TEST_PASSWORD);
    const trusted = () =>
      t.db.kysely.selectFrom('trusted_devices').select('token_hash').where('user_id', '=', ana.id).execute();
    expect(await trusted()).toHaveLength(2);
    expect((await changePassword(phone, 'mi-clave-nueva-2026', TEST_PASSWORD)).statusCode).toBe(200);
    const [kept] = await trusted();
    expect(await trusted()).toHaveLength(1);
    const deviceToken = /comando_dispositivo=([^;]+)/.exec(phone)?.[1] ?? '';
    expect(kept?.token_hash).toBe(hashToken(deviceToken));
    const [audit] = await listAudit(t.db.kysely, { action: 'auth.password_change' });
    expect(JSON.parse(audit?.details as string)).toEqual({
      oneTimePassword: false,
      sessionsEnded: 1,
      devicesForgotten: 1,
    });
  });

  it('a session opened before the one-time password was set proves nothing about it', async () => {
    const clock = { now: Date.parse('2026-11-22T12:00:00Z') };
    await setup(clock);
    const ana = await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const cookie = await loginAs(t, 'ana@example.org');
    // A reset that raced this sign-in: the session outlived the reset that should have ended it.
    clock.now += 1000;
    await createAuthRepository(t.db.kysely).updatePasswordHash(
      ana.id,
      await hashPassword('abcd-efgh-jkmn'),
      new Date(clock.now),
      {
        mustChange: true,
        expiresAt: new Date(clock.now + ONE_TIME_PASSWORD_MS).toISOString(),
      },
    );
    const res = await changePassword(cookie, 'mi-clave-nueva-2026');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(authMessages.signInAgain);
  });

  it('expires 72 hours after it was made; the admin makes a new one that works', async () => {
    const clock = { now: Date.parse('2026-11-22T12:00:00Z') };
    const { oneTime, userId } = await setup(clock);
    expect(ONE_TIME_PASSWORD_MS).toBe(72 * 60 * 60 * 1000);
    // A session opened just in time cannot use it once it has expired.
    clock.now += ONE_TIME_PASSWORD_MS - 1000;
    const late = await loginAs(t, NEW_PERSON, oneTime);
    clock.now += 1000;
    const tooLate = await changePassword(late, 'mi-clave-nueva-2026');
    expect(tooLate.statusCode).toBe(400);
    expect(tooLate.json().message).toBe(
      'Tu contraseña de un solo uso venció. Pide a un administrador que te dé una nueva en Personas.',
    );
    // Signing in with it says why, and is not counted as a guess.
    for (let i = 0; i < 6; i++) {
      const expired = await login(NEW_PERSON, oneTime);
      expect(expired.statusCode).toBe(401);
      expect(expired.json().message).toBe(authMessages.oneTimePasswordExpired);
    }
    // A wrong password reads as any wrong password.
    expect((await login(NEW_PERSON, 'no-es-la-clave')).json().message).toBe('Error en usuario o contraseña.');

    // Three days on, the admin signs in again and makes another.
    const reset = await t.request({
      method: 'POST',
      url: `/api/admin/users/${userId}/password`,
      headers: { cookie: await loginAs(t, ADMIN) },
      payload: {},
    });
    const fresh = reset.json().oneTimePassword as string;
    const cookie = await loginAs(t, NEW_PERSON, fresh);
    expect((await changePassword(cookie, 'mi-clave-nueva-2026')).statusCode).toBe(200);
    // A password of one's own never expires.
    clock.now += 10 * ONE_TIME_PASSWORD_MS;
    expect((await login(NEW_PERSON, 'mi-clave-nueva-2026')).statusCode).toBe(200);
  });
});
