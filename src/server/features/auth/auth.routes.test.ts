import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hash } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { listAudit } from '#server/platform/audit/audit.repository';
import { openDatabase } from '#server/platform/db/database';
import { ARGON2_OPTIONS, getDummyHash, needsRehash } from '#server/platform/session/passwords';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '#server/platform/session/session.service';
import { THROTTLE } from '#server/platform/session/throttle';
import { accountsOf, createUser, loginAs, TEST_PASSWORD, TEST_PASSWORD_HASH } from '#server/testing/auth-helpers';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#server/testing/test-app';
import { authMessages } from '#shared/platform/session';

let t: TestApp;
let extra: FastifyInstance | undefined;
afterEach(async () => {
  await extra?.close();
  extra = undefined;
  await t?.close();
});

/** An app whose clock the test moves by hand. */
async function appWithClock(start = '2026-11-22T12:00:00Z', overrides = {}) {
  const clock = { now: Date.parse(start) };
  t = await createTestApp({ now: () => new Date(clock.now), ...overrides });
  return { t, clock, advance: (ms: number) => (clock.now += ms) };
}

const login = (app: TestApp, payload: unknown, headers: Record<string, string> = {}, remoteAddress?: string) =>
  app.request({
    method: 'POST',
    url: '/api/auth/login',
    payload: payload as object,
    headers,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
const session = (app: TestApp, cookie?: string) =>
  app.request({ url: '/api/auth/session', headers: cookie ? { cookie } : {} });
const setCookieOf = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie'] ?? '');
/** The `name=value` of the device cookie a sign-in set. */
const deviceCookieOf = (res: { headers: Record<string, unknown> }) =>
  /comando_dispositivo=[^;]*/.exec(setCookieOf(res))?.[0] ?? '';

/** A JSON POST over a real socket whose source is `localAddress` (any of 127.0.0.0/8 on Linux). */
function postFrom(port: number, localAddress: string, path: string, body: unknown): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('POST /api/auth/login', () => {
  it('opens a session in an HttpOnly, SameSite=Lax cookie and answers the user, menu and home', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
    const res = await login(t, { email: 'jefa@example.org', password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    const cookie = setCookieOf(res);
    expect(cookie).toMatch(/^comando_sesion=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      user: { email: 'jefa@example.org', role: 'admin', mustChangePassword: false },
      menu: [
        { title: 'Resultados', path: '/resultados' },
        { title: 'Notas', path: '/notas' },
        { title: 'Agenda', path: '/agenda' },
        { title: 'Revisión', path: '/revision' },
        {
          title: 'Administración',
          path: '/admin',
          sections: [
            'personas',
            'departamentos',
            'candidatos',
            'agenda',
            'notas',
            'registros',
            'ajustes',
            'auditoria',
            'jornada',
            'mensajes',
          ],
        },
      ],
      home: '/resultados',
      logoutRoute: '/',
    });
  });

  it('marks the cookie Secure (and __Host-) when the app is served over HTTPS', async () => {
    t = await createTestApp({ publicOrigin: 'https://comando.example.org' });
    await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: 'https://comando.example.org' },
      payload: { email: 'jefa@example.org', password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(setCookieOf(res)).toMatch(/^__Host-comando_sesion=.*; Secure/i);
    const cookie = `__Host-comando_sesion=${res.cookies[0]?.value}`;
    const me = await t.app.inject({ url: '/api/auth/session', headers: { cookie } });
    expect(me.json().user.email).toBe('jefa@example.org');
  });

  it.each([
    [{}, authMessages.required],
    [{ email: '', password: '' }, authMessages.required],
    [{ email: 'ana@example.org', password: '' }, authMessages.required],
    [{ email: '', password: 'secreto123' }, authMessages.required],
    [{ email: 'no-es-un-correo', password: '' }, authMessages.required],
    [{ email: 'no-es-un-correo', password: 'secreto123' }, authMessages.invalidEmail],
    [{ email: 'ana@example', password: 'secreto123' }, authMessages.invalidEmail],
    [{ email: 'ana @example.org', password: 'secreto123' }, authMessages.invalidEmail],
    [{ email: 'ana@example.org', password: '12345' }, authMessages.shortPassword],
  ])('refuses %j with the spec message', async (payload, message) => {
    t = await createTestApp();
    const res = await login(t, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('answers the same 401 for a wrong password, an unknown e-mail and a disabled account', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff', departments: ['cabimas'] });
    await createUser(t.db, { email: 'off@example.org', role: 'staff', departments: ['cabimas'] });
    await accountsOf(t.db.kysely).setDisabled('off@example.org', true, {
      email: 'x',
      ip: null,
    });
    const answers = await Promise.all([
      login(t, { email: 'ana@example.org', password: 'otra-clave' }),
      login(t, { email: 'nadie@example.org', password: TEST_PASSWORD }),
      login(t, { email: 'off@example.org', password: TEST_PASSWORD }),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Error en usuario o contraseña.' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const reasons = (await listAudit(t.db.kysely, { action: 'auth.login_failed' })).map((r) => JSON.parse(r.details!));
    expect(reasons.map((r) => r.reason).sort()).toEqual(['disabled', 'unknown_email', 'wrong_password']);
  });

  it('costs an unknown e-mail the same argon2 work as a wrong password (a hash is checked either way)', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    // The stand-in hash an unknown e-mail is checked against costs what an account's hash costs.
    const dummy = await getDummyHash();
    expect(needsRehash(dummy)).toBe(false);
    expect(dummy.split('$').slice(0, 4)).toEqual(TEST_PASSWORD_HASH.split('$').slice(0, 4));
    await login(t, { email: 'calienta@example.org', password: 'calentamiento' });
    // CPU time of this process (argon2 runs on its thread pool), not the wall clock: another program
    // keeping the cores busy stretches the wall clock of a request, not the work it does. One argon2
    // check here is 15–20 ms of CPU and an answer without one about 3 ms: the median of five must land
    // within a factor of 3 of the wrong password's, a margin that holds on a busy machine and still
    // fails when the unknown e-mail skips the hash.
    const cpuMs = async (email: string, ip: string) => {
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) {
        const before = process.cpuUsage();
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: `${ip}.${i}`,
          headers: { origin: TEST_ORIGIN },
          payload: { email, password: `incorrecta-${i}` },
        });
        const used = process.cpuUsage(before);
        expect(res.statusCode).toBe(401);
        samples.push((used.user + used.system) / 1000);
      }
      return samples.sort((a, b) => a - b)[2]!;
    };
    const wrong = await cpuMs('ana@example.org', '10.0.0');
    const unknown = await cpuMs('nadie@example.org', '10.0.1');
    expect(unknown).toBeGreaterThan(wrong / 3);
    expect(unknown).toBeLessThan(wrong * 3);
  });

  it('treats e-mails without regard to case, at sign-in and on the lists', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'Ana.Perez@Example.ORG', role: 'staff', departments: ['cabimas'] });
    const res = await login(t, { email: '  ANA.perez@example.org ', password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe('ana.perez@example.org');
    expect(res.json().menu).toEqual([{ title: 'Cabimas', path: '/validation/cabimas' }]);
    const created = await createUser(t.db, { email: 'x@example.org', role: 'staff' });
    expect(created.email).toBe('x@example.org');
    await expect(createUser(t.db, { email: 'ANA.PEREZ@example.org', role: 'staff' })).rejects.toThrow(/Ya existe/);
  });

  it('stores only an argon2id hash of the password and a sha256 of the token', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const cookie = await loginAs(t, 'ana@example.org');
    const token = cookie.split('=')[1]!;
    const user = await t.db.kysely.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    expect(user.password_hash).not.toContain(TEST_PASSWORD);
    expect(user.last_login_at).not.toBeNull();
    const rows = await t.db.kysely.selectFrom('sessions').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('refuses a sign-in that does not come from the app itself', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const payload = { email: 'ana@example.org', password: TEST_PASSWORD };
    const noOrigin = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
    const evil = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload,
      headers: { origin: 'https://evil.example' },
    });
    for (const res of [noOrigin, evil]) {
      expect(res.statusCode).toBe(403);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const cookie = await loginAs(t, 'ana@example.org');
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(logout.statusCode).toBe(403);
    expect((await session(t, cookie)).json().user).not.toBeNull();
  });
});

describe('password hashes', () => {
  const storedHash = async (email: string) =>
    (await t.db.kysely.selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow())
      .password_hash;

  it('are argon2id with the chosen settings, and so is the stand-in checked for unknown e-mails', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const params = `$argon2id$v=19$m=${ARGON2_OPTIONS.memoryCost},t=${ARGON2_OPTIONS.timeCost},p=1$`;
    expect((await storedHash('ana@example.org')).slice(0, params.length)).toBe(params);
    // The same work for an unknown e-mail as for a known one.
    expect(needsRehash(await getDummyHash())).toBe(false);
  });

  it('made with older settings still let the person in, and are made again with the current ones', async () => {
    t = await createTestApp();
    const ana = await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    // @node-rs/argon2's defaults (19 MiB, 2 passes), which earlier versions used.
    await t.db.kysely
      .updateTable('users')
      .set({ password_hash: await hash(TEST_PASSWORD) })
      .where('id', '=', ana.id)
      .execute();
    expect(needsRehash(await storedHash('ana@example.org'))).toBe(true);
    expect((await login(t, { email: 'ana@example.org', password: 'otra-clave-999' })).statusCode).toBe(401);
    expect(needsRehash(await storedHash('ana@example.org'))).toBe(true);
    expect((await login(t, { email: 'ana@example.org', password: TEST_PASSWORD })).statusCode).toBe(200);
    expect(needsRehash(await storedHash('ana@example.org'))).toBe(false);
    expect((await login(t, { email: 'ana@example.org', password: TEST_PASSWORD })).statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('answers visitors with no user and an empty menu', async () => {
    t = await createTestApp();
    const res = await session(t);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: null, menu: [], home: null, logoutRoute: '/' });
    const junk = await session(t, 'comando_sesion=not-a-token');
    expect(junk.json().user).toBeNull();
  });

  it('gives each role its menu: validators their municipalities, staff of a page that page, others nothing', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'a@example.org', role: 'staff', departments: ['coquivacoa', 'cabimas'] });
    await createUser(t.db, { email: 'n@example.org', role: 'staff', departments: ['notas', 'agenda'] });
    await createUser(t.db, { email: 'nada@example.org', role: 'staff' });
    await createUser(t.db, { email: 'jefa@example.org', role: 'admin', departments: ['sucre'] });
    const menuOf = async (email: string) => (await session(t, await loginAs(t, email))).json();
    expect(await menuOf('a@example.org')).toMatchObject({
      menu: [
        { title: 'Coquivacoa', path: '/validation/coquivacoa' },
        { title: 'Cabimas', path: '/validation/cabimas' },
      ],
      home: '/validation/coquivacoa',
    });
    expect((await menuOf('n@example.org')).menu.map((m: { path: string }) => m.path)).toEqual([
      '/notas',
      '/agenda',
      '/admin',
    ]);
    // The Agenda and Notas lists open their own back-office sections, and only those.
    expect((await menuOf('n@example.org')).menu.at(-1)).toEqual({
      title: 'Administración',
      path: '/admin',
      sections: ['agenda', 'notas'],
    });
    expect(await menuOf('nada@example.org')).toMatchObject({ menu: [], home: null });
    expect((await menuOf('jefa@example.org')).menu.map((m: { path: string }) => m.path)).toEqual([
      '/resultados',
      '/notas',
      '/agenda',
      '/validation/sucre',
      // Admins review every municipality's photos (decision 134).
      '/revision',
      '/admin',
    ]);
  });

  it('tells where logout leads from the setting', async () => {
    t = await createTestApp();
    await t.db.kysely.updateTable('settings').set({ value: '/agenda' }).where('key', '=', 'logout_route').execute();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const cookie = await loginAs(t, 'ana@example.org');
    const res = await t.request({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(res.json()).toEqual({ redirectTo: '/agenda' });
  });

  it('ends after the idle time without use, and stays alive while it is used', async () => {
    const { advance } = await appWithClock();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const cookie = await loginAs(t, 'ana@example.org');
    // Used every (idle - 1 minute): still alive well past the idle time.
    for (let i = 0; i < 3; i++) {
      advance(SESSION_IDLE_MS - 60_000);
      expect((await session(t, cookie)).json().user?.email).toBe('ana@example.org');
    }
    advance(SESSION_IDLE_MS + 1000);
    expect((await session(t, cookie)).json().user).toBeNull();
  });

  it('ends at the absolute expiry however active it is', async () => {
    const { advance } = await appWithClock();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const cookie = await loginAs(t, 'ana@example.org');
    const step = SESSION_IDLE_MS / 2;
    let elapsed = 0;
    while (elapsed + step < SESSION_ABSOLUTE_MS) {
      advance(step);
      elapsed += step;
      expect((await session(t, cookie)).json().user).not.toBeNull();
    }
    advance(SESSION_ABSOLUTE_MS - elapsed + 1000);
    expect((await session(t, cookie)).json().user).toBeNull();
  });

  it('is revoked at logout: the same cookie no longer works', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const cookie = await loginAs(t, 'ana@example.org');
    const res = await t.request({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(setCookieOf(res)).toMatch(/comando_sesion=;.*Expires=Thu, 01 Jan 1970/);
    expect((await session(t, cookie)).json().user).toBeNull();
    expect(await t.db.kysely.selectFrom('sessions').selectAll().execute()).toHaveLength(0);
    // Logging out twice, or as a visitor, is harmless.
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', headers: { cookie } })).statusCode).toBe(200);
  });

  it('gives a new token at every sign-in and revokes the one the browser brought (no fixation)', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const first = await loginAs(t, 'ana@example.org');
    const res = await login(t, { email: 'ana@example.org', password: TEST_PASSWORD }, { cookie: first });
    const second = `comando_sesion=${res.cookies[0]?.value}`;
    expect(second).not.toBe(first);
    expect((await session(t, first)).json().user).toBeNull();
    expect((await session(t, second)).json().user?.email).toBe('ana@example.org');
    // A token planted by someone else (never issued) is not adopted either.
    const planted = `comando_sesion=${'A'.repeat(43)}`;
    const res3 = await login(t, { email: 'ana@example.org', password: TEST_PASSWORD }, { cookie: planted });
    expect(res3.cookies[0]?.value).not.toBe('A'.repeat(43));
    expect((await session(t, planted)).json().user).toBeNull();
  });

  it('ends every session of an account that is disabled, and it cannot sign in again', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff', departments: ['cabimas'] });
    const phone = await loginAs(t, 'ana@example.org');
    const laptop = await loginAs(t, 'ana@example.org');
    expect((await session(t, phone)).json().user?.email).toBe('ana@example.org');
    expect((await session(t, laptop)).json().user?.email).toBe('ana@example.org');
    const auth = accountsOf(t.db.kysely);
    await auth.setDisabled('ANA@example.org', true, { email: 'cli:root', ip: null });
    expect((await session(t, phone)).json().user).toBeNull();
    expect((await session(t, laptop)).json().user).toBeNull();
    expect((await login(t, { email: 'ana@example.org', password: TEST_PASSWORD })).statusCode).toBe(401);
    await auth.setDisabled('ana@example.org', false, { email: 'cli:root', ip: null });
    expect((await login(t, { email: 'ana@example.org', password: TEST_PASSWORD })).statusCode).toBe(200);
  });

  it('ends every session when the password changes; only the new password works', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const cookie = await loginAs(t, 'ana@example.org');
    expect((await session(t, cookie)).json().user?.email).toBe('ana@example.org');
    await accountsOf(t.db.kysely).setPassword('ana@example.org', 'nueva-clave-456', {
      email: 'cli:root',
      ip: null,
    });
    expect((await session(t, cookie)).json().user).toBeNull();
    expect((await login(t, { email: 'ana@example.org', password: TEST_PASSWORD })).statusCode).toBe(401);
    expect((await login(t, { email: 'ana@example.org', password: 'nueva-clave-456' })).statusCode).toBe(200);
  });

  it('is shared by every instance on the same database: open on one, revoke on the other', async () => {
    t = await createTestApp();
    extra = await buildApp(t.config, {
      db: await openDatabase({ dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl }),
      logger: false,
    });
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const cookie = await loginAs(t, 'ana@example.org');
    expect((await session(t, cookie)).json().user.email).toBe('ana@example.org');
    const other = await extra.inject({ url: '/api/auth/session', headers: { cookie } });
    expect(other.json().user.email).toBe('ana@example.org');
    await extra.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, origin: TEST_ORIGIN } });
    // On SQLite the other instance's commit is noticed within a millisecond (cache.ts).
    await new Promise((resolve) => setTimeout(resolve, 3));
    expect((await session(t, cookie)).json().user).toBeNull();
  });
});

describe('POST /api/auth/logout-all', () => {
  it('ends every session of the person, this one too, and no browser stays one of theirs; audited', async () => {
    await appWithClock();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const phone = await login(t, { email: 'ana@example.org', password: TEST_PASSWORD });
    const phoneCookies = `${/comando_sesion=[^;]*/.exec(setCookieOf(phone))?.[0]}; ${deviceCookieOf(phone)}`;
    const laptop = await loginAs(t, 'ana@example.org');
    expect((await t.request({ method: 'POST', url: '/api/auth/logout-all' })).statusCode).toBe(401);

    const res = await t.request({ method: 'POST', url: '/api/auth/logout-all', headers: { cookie: phoneCookies } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ redirectTo: '/' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(setCookieOf(res)).toMatch(/comando_sesion=;/);
    expect((await session(t, phoneCookies)).json().user).toBeNull();
    expect((await session(t, laptop)).json().user).toBeNull();
    const audit = (await listAudit(t.db.kysely, { action: 'auth.logout_all' }))[0];
    expect(audit).toMatchObject({ actor_email: 'ana@example.org', target: 'ana@example.org' });
    // Both browsers signed in with the password, so both had become hers.
    expect(JSON.parse(audit?.details ?? '{}')).toEqual({ sessionsEnded: 2, devicesForgotten: 2 });

    // The phone is a stranger's browser again: with the account under attack, one failure at its
    // address and it waits, as any stranger's browser would (its own browser never would).
    for (let i = 0; i < THROTTLE.accountLimit; i++) {
      await login(t, { email: 'ana@example.org', password: `mala-${i}` }, {}, `10.0.0.${i}`);
    }
    await login(t, { email: 'ana@example.org', password: 'olvidada' }, { cookie: phoneCookies });
    const again = await login(t, { email: 'ana@example.org', password: TEST_PASSWORD }, { cookie: phoneCookies });
    expect(again.statusCode).toBe(429);
  });
});

describe('too many attempts', () => {
  it('slows an account down at one address with a 429, a Spanish message saying when, and Retry-After', async () => {
    const { advance } = await appWithClock();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    for (let i = 0; i < THROTTLE.accountAtAddressLimit; i++) {
      expect((await login(t, { email: 'ana@example.org', password: `mala-${i}` })).statusCode).toBe(401);
    }
    // Blocked now at this address, even with the right password.
    const blocked = await login(t, { email: 'ANA@example.org', password: TEST_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('30');
    expect(blocked.json().message).toBe('Demasiados intentos de inicio de sesión. Intenta de nuevo en 30 segundos.');

    advance(THROTTLE.firstBlockMs + 1000);
    // One more failure doubles the wait.
    await login(t, { email: 'ana@example.org', password: 'mala-otra-vez' });
    const again = await login(t, { email: 'ana@example.org', password: TEST_PASSWORD });
    expect(again.statusCode).toBe(429);
    expect(again.headers['retry-after']).toBe('60');
    expect(again.json().message).toMatch(/Intenta de nuevo en 1 minuto\.$/);

    advance(2 * THROTTLE.firstBlockMs + 1000);
    expect((await login(t, { email: 'ana@example.org', password: TEST_PASSWORD })).statusCode).toBe(200);
    // Success clears the counter of the account at this address.
    expect((await login(t, { email: 'ana@example.org', password: 'mala-clave' })).statusCode).toBe(401);
    expect((await login(t, { email: 'ana@example.org', password: TEST_PASSWORD })).statusCode).toBe(200);
    expect((await listAudit(t.db.kysely, { action: 'auth.login_throttled' })).length).toBe(2);
  });

  it('failures from one address do not keep the owner out from another (a second loopback address)', async () => {
    await appWithClock();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const from = (localAddress: string, password: string) =>
      postFrom(port, localAddress, '/api/auth/login', { email: 'ana@example.org', password });
    // Someone who knows her address fails on purpose, until that address is blocked.
    for (let i = 0; i < THROTTLE.accountAtAddressLimit; i++)
      expect((await from('127.0.0.1', `mala-${i}`)).status).toBe(401);
    expect((await from('127.0.0.1', TEST_PASSWORD)).status).toBe(429);
    // Ana, from her own phone's address, on a browser that never signed in before: she is in.
    const owner = await from('127.0.0.2', TEST_PASSWORD);
    expect(owner.status).toBe(200);
    const audit = await listAudit(t.db.kysely, { action: 'auth.login' });
    expect(audit.map((a) => a.ip)).toEqual(['127.0.0.2']);
  });

  it('50 failures from other addresses never keep the owner out of a new browser; the account under attack gives each address one try', async () => {
    const { advance } = await appWithClock();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    // A guesser with fifty addresses and no cookie: fifty failures, each one counted.
    for (let a = 0; a < 50; a++) {
      const res = await login(t, { email: 'ana@example.org', password: `mala-${a}` }, {}, `10.0.0.${a}`);
      expect(res.statusCode).toBe(401);
    }
    expect(await listAudit(t.db.kysely, { action: 'auth.login_failed' })).toHaveLength(50);
    // Ana on a new phone (no device cookie) from her own address: in, with the right password.
    const owner = await login(t, { email: 'ana@example.org', password: TEST_PASSWORD }, {}, '198.51.100.7');
    expect(owner.statusCode).toBe(200);
    expect(owner.json().user.email).toBe('ana@example.org');

    // Still no fast guessing: each address that failed once the account was under attack now waits
    // (the first ten failed before it was: they have four tries left each).
    for (let a = THROTTLE.accountLimit; a < 50; a++) {
      const res = await login(t, { email: 'ana@example.org', password: `otra-${a}` }, {}, `10.0.0.${a}`);
      expect(res.statusCode).toBe(429);
    }
    // ...and while the account is under attack, a fresh address gets one try, not five, then waits,
    // each further failure doubling the wait (30 s, 60 s, ...).
    const fresh = (password: string) =>
      login(t, { email: 'ana@example.org', password }, {}, '203.0.113.50').then((r) => r.statusCode);
    expect(await fresh('intento-1')).toBe(401);
    expect(await fresh('intento-2')).toBe(429);
    advance(THROTTLE.firstBlockMs + 1000);
    expect(await fresh('intento-3')).toBe(401);
    const again = await login(t, { email: 'ana@example.org', password: 'intento-4' }, {}, '203.0.113.50');
    expect(again.statusCode).toBe(429);
    expect(again.headers['retry-after']).toBe('60');
  });

  it('a browser the owner used before is judged by its own failures, wherever it is', async () => {
    const { advance } = await appWithClock();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    // Yesterday Ana signed in on her phone: it holds a device cookie, HttpOnly and SameSite=Strict.
    const first = await login(t, { email: 'ana@example.org', password: TEST_PASSWORD });
    const device = deviceCookieOf(first);
    expect(device).toMatch(/^comando_dispositivo=[A-Za-z0-9_-]{43}$/);
    expect(setCookieOf(first)).toMatch(
      /comando_dispositivo=[^;]+;[^,]*Max-Age=15552000;[^,]*HttpOnly;[^,]*SameSite=Strict/,
    );
    advance(24 * 60 * 60 * 1000);
    // Her phone's address is a carrier's, shared with a guesser who has spent its limits there.
    for (let i = 0; i < THROTTLE.accountLimit; i++) {
      await login(t, { email: 'ana@example.org', password: `mala-${i}` }, {}, '10.0.0.1');
    }
    expect((await login(t, { email: 'ana@example.org', password: TEST_PASSWORD }, {}, '10.0.0.1')).statusCode).toBe(
      429,
    );
    // Her phone is not kept out there; its new token replaces the old one (a copy of the old is worth nothing).
    const phone = await login(t, { email: 'ana@example.org', password: TEST_PASSWORD }, { cookie: device }, '10.0.0.1');
    expect(phone.statusCode).toBe(200);
    const renewed = deviceCookieOf(phone);
    expect(renewed).toMatch(/^comando_dispositivo=[A-Za-z0-9_-]{43}$/);
    expect(renewed).not.toBe(device);
    expect(
      (await login(t, { email: 'ana@example.org', password: TEST_PASSWORD }, { cookie: device }, '10.0.0.1'))
        .statusCode,
    ).toBe(429);
    expect(
      (await login(t, { email: 'ana@example.org', password: TEST_PASSWORD }, { cookie: renewed }, '10.0.0.1'))
        .statusCode,
    ).toBe(200);
    // A device cookie of another account, or a made-up one, is a stranger's browser.
    const forged = `comando_dispositivo=${'A'.repeat(43)}`;
    expect(
      (await login(t, { email: 'ana@example.org', password: TEST_PASSWORD }, { cookie: forged }, '10.0.0.1'))
        .statusCode,
    ).toBe(429);
  });

  it('a copied device cookie buys a few guesses once and locks nobody out: not that phone, not her other browsers', async () => {
    await appWithClock();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const phone = deviceCookieOf(
      await login(t, { email: 'ana@example.org', password: TEST_PASSWORD }, {}, '198.51.100.7'),
    );
    const laptop = deviceCookieOf(
      await login(t, { email: 'ana@example.org', password: TEST_PASSWORD }, {}, '192.0.2.10'),
    );
    // A thief copies the phone's cookie and guesses from an address of his own.
    const thief = (password: string) =>
      login(t, { email: 'ana@example.org', password }, { cookie: phone }, '203.0.113.66').then((r) => r.statusCode);
    for (let i = 0; i < THROTTLE.deviceLimit; i++) expect(await thief(`robada-${i}`)).toBe(401);
    // Now the copy is a stranger's browser: five more at his address, then he waits.
    for (let i = 0; i < THROTTLE.accountAtAddressLimit; i++) expect(await thief(`extranjera-${i}`)).toBe(401);
    expect(await thief('una-mas')).toBe(429);
    expect(await thief(TEST_PASSWORD)).toBe(429);
    const audit = await listAudit(t.db.kysely, { action: 'auth.login_failed' });
    expect(audit.filter((a) => JSON.parse(a.details ?? '{}').device === 'known')).toHaveLength(THROTTLE.deviceLimit);

    // Ana's phone, at her address: in at once with her password, and trusted again under a new token.
    const back = await login(
      t,
      { email: 'ana@example.org', password: TEST_PASSWORD },
      { cookie: phone },
      '198.51.100.7',
    );
    expect(back.statusCode).toBe(200);
    expect(deviceCookieOf(back)).not.toBe(phone);
    // Her laptop was never touched: still one of hers, even from the thief's address.
    const fromLaptop = await login(
      t,
      { email: 'ana@example.org', password: TEST_PASSWORD },
      { cookie: laptop },
      '203.0.113.66',
    );
    expect(fromLaptop.statusCode).toBe(200);
  });

  it('a one-time password from an admin lets the owner in while every limit refuses everything else', async () => {
    await appWithClock();
    await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
    const admin = await loginAs(t, 'jefa@example.org');
    const ana = await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    // From the one address Ana has (a carrier's), a guesser spends every limit: hers there, the address's.
    for (let i = 0; i < THROTTLE.addressLimit; i++) {
      await login(
        t,
        { email: i % 2 ? 'ana@example.org' : `otra-${i}@example.org`, password: `mala-${i}` },
        {},
        '10.0.0.1',
      );
    }
    expect((await login(t, { email: 'ana@example.org', password: TEST_PASSWORD }, {}, '10.0.0.1')).statusCode).toBe(
      429,
    );
    const reset = await t.request({
      method: 'POST',
      url: `/api/admin/users/${ana.id}/password`,
      headers: { cookie: admin },
      payload: {},
    });
    const oneTime = reset.json().oneTimePassword as string;
    // Wrong guesses still meet the block, and take nothing from it.
    const guess = await login(t, { email: 'ana@example.org', password: 'abcd-efgh-jkmn' }, {}, '10.0.0.1');
    expect(guess.statusCode).toBe(429);
    const owner = await login(t, { email: 'ana@example.org', password: oneTime }, {}, '10.0.0.1');
    expect(owner.statusCode).toBe(200);
    expect(owner.json().user).toMatchObject({ email: 'ana@example.org', mustChangePassword: true });
    const [entry] = await listAudit(t.db.kysely, { action: 'auth.login' });
    expect(JSON.parse(entry?.details ?? '{}')).toEqual({ throttled: 'one_time_password' });
  });

  it('slows an address down that tries many accounts', async () => {
    await appWithClock();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const from = (ip: string, email: string, password: string) =>
      t.request({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { email, password } });
    for (let i = 0; i < THROTTLE.addressLimit; i++) {
      expect((await from('203.0.113.9', `u${i}@example.org`, 'cualquiera')).statusCode).toBe(401);
    }
    const blocked = await from('203.0.113.9', 'ana@example.org', TEST_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await from('198.51.100.7', 'ana@example.org', TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('keeps the counters in the database, so every instance applies the same block', async () => {
    await appWithClock();
    extra = await buildApp(t.config, {
      db: await openDatabase({ dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl }),
      logger: false,
    });
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    for (let i = 0; i < THROTTLE.accountLimit; i++) {
      const target = i % 2 === 0 ? t.app : extra;
      await target.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { origin: TEST_ORIGIN },
        payload: { email: 'ana@example.org', password: 'mala-clave' },
      });
    }
    for (const target of [t.app, extra]) {
      const res = await target.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { origin: TEST_ORIGIN },
        payload: { email: 'ana@example.org', password: TEST_PASSWORD },
      });
      expect(res.statusCode).toBe(429);
    }
  });
});

describe('audit', () => {
  it('records sign-in success and failure and logout with actor, time and address', async () => {
    const start = '2026-11-22T12:00:00.000Z';
    await appWithClock(start);
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    await t.request({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '198.51.100.1',
      payload: { email: 'ana@example.org', password: 'mala-clave' },
    });
    const ok = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '198.51.100.2',
      payload: { email: 'ana@example.org', password: TEST_PASSWORD },
    });
    const cookie = `comando_sesion=${ok.cookies[0]?.value}`;
    await t.request({ method: 'POST', url: '/api/auth/logout', remoteAddress: '198.51.100.3', headers: { cookie } });
    const rows = (await listAudit(t.db.kysely)).filter((r) => r.action.startsWith('auth.')).reverse();
    expect(rows.map((r) => [r.action, r.actor_email, r.ip, r.at])).toEqual([
      ['auth.login_failed', 'ana@example.org', '198.51.100.1', start],
      ['auth.login', 'ana@example.org', '198.51.100.2', start],
      ['auth.logout', 'ana@example.org', '198.51.100.3', start],
    ]);
  });

  it('records account changes', async () => {
    t = await createTestApp();
    const auth = accountsOf(t.db.kysely);
    const actor = { email: 'cli:root', ip: null };
    await auth.createUser({ email: 'ana@example.org', password: 'secreto123', role: 'staff' }, actor);
    await auth.setPassword('ana@example.org', 'secreto456', actor);
    await auth.setDisabled('ana@example.org', true, actor);
    await auth.setDisabled('ana@example.org', false, actor);
    await auth.setRole('ana@example.org', 'admin', actor);
    const rows = (await listAudit(t.db.kysely)).filter((r) => r.action.startsWith('user.')).reverse();
    expect(rows.map((r) => [r.action, r.actor_email, r.target])).toEqual([
      ['user.create', 'cli:root', 'ana@example.org'],
      ['user.password', 'cli:root', 'ana@example.org'],
      ['user.disable', 'cli:root', 'ana@example.org'],
      ['user.enable', 'cli:root', 'ana@example.org'],
      ['user.role', 'cli:root', 'ana@example.org'],
    ]);
  });
});
