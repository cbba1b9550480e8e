import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createUser, loginAs } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';

let t: TestApp;
afterEach(async () => t?.close());

const ADMIN = 'jefa@example.org';
const NEW_PERSON = 'nueva.validadora@example.org';

/** What a session opened with a one-time password may still ask. */
const OPEN = ['GET /api/auth/session', 'GET /api/auth/provider', 'POST /api/auth/password', 'POST /api/auth/logout'];

async function setup() {
  t = await createTestApp();
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
const changePassword = (cookie: string, currentPassword: string, newPassword: string) =>
  t.request({
    method: 'POST',
    url: '/api/auth/password',
    headers: { cookie },
    payload: { currentPassword, newPassword },
  });

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

    const wrong = await changePassword(cookie, 'no-es-esta', 'mi-clave-nueva-2026');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('La contraseña actual no es correcta.');
    const same = await changePassword(cookie, oneTime, oneTime);
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('La contraseña nueva debe ser distinta de la actual.');
    const short = await changePassword(cookie, oneTime, 'corta');
    expect(short.json().message).toBe('La contraseña debe tener al menos 6 caracteres.');

    const changed = await changePassword(cookie, oneTime, 'mi-clave-nueva-2026');
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
    expect(JSON.parse(audit?.details as string)).toEqual({ oneTimePassword: true, sessionsEnded: 1 });
  });

  it('a reset with a generated password asks for a change again; one the admin chose does not', async () => {
    const { admin, oneTime, userId } = await setup();
    await changePassword(await loginAs(t, NEW_PERSON, oneTime), oneTime, 'mi-clave-nueva-2026');

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
});
