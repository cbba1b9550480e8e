import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import type { AuthProviderConfig } from '#server/platform/config/config';
import { THROTTLE } from '#server/platform/session/throttle';
import { accountsOf, createUser, TEST_PASSWORD } from '#server/testing/auth-helpers';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#server/testing/test-app';
import { authMessages } from '#shared/platform/session';
import { type FirebaseContractServer, startFirebaseContractServer } from '#tests/support/firebase-contract-server';

const PROJECT = 'comando-pruebas';
const API_KEY = 'clave-web-de-prueba';
let firebase: FirebaseContractServer;
let t: TestApp;

beforeAll(async () => {
  firebase = await startFirebaseContractServer({ projectId: PROJECT, apiKey: API_KEY, accounts: [] });
});
afterAll(async () => firebase?.close());
afterEach(async () => t?.close());

const firebaseAuth = (overrides: Partial<Extract<AuthProviderConfig, { provider: 'firebase' }>> = {}) =>
  ({
    provider: 'firebase',
    projectId: PROJECT,
    apiKey: API_KEY,
    emulatorUrl: undefined,
    emulatorTokens: false,
    jwksUrl: firebase.jwksUrl,
    ...overrides,
  }) as const;

async function firebaseApp(overrides: Parameters<typeof firebaseAuth>[0] = {}) {
  t = await createTestApp({ auth: firebaseAuth(overrides) });
  await createUser(t.db, { email: 'ana@example.org', role: 'staff', departments: ['cabimas'] });
  await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
  return t;
}

const exchange = (idToken: unknown, remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/firebase',
    remoteAddress,
    headers: { origin: TEST_ORIGIN },
    payload: { idToken } as object,
  });

const sessionRows = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const nowS = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The claims of a genuine token for `email`, to sign with keys the test controls. */
function claimsFor(email: string, overrides: Record<string, unknown> = {}) {
  const now = nowS();
  return {
    iss: `https://securetoken.google.com/${PROJECT}`,
    aud: PROJECT,
    auth_time: now,
    user_id: 'uid-ana',
    sub: 'uid-ana',
    iat: now,
    exp: now + 3600,
    email,
    email_verified: false,
    firebase: { identities: { email: [email] }, sign_in_provider: 'password' },
    ...overrides,
  };
}

async function expectRefused(idToken: unknown) {
  const res = await exchange(idToken);
  expect(res.statusCode).toBe(401);
  expect(res.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Error en usuario o contraseña.' });
  expect(res.headers['set-cookie']).toBeUndefined();
  expect(await sessionRows()).toBe(0);
}

describe('POST /api/auth/firebase', () => {
  it('opens our own session for a genuine token of a known account; the cookie works and the menu is ours', async () => {
    await firebaseApp();
    const res = await exchange(await firebase.idTokenFor('Ana@Example.org'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({
      user: { email: 'ana@example.org', role: 'staff', mustChangePassword: false },
      menu: [{ title: 'Cabimas', path: '/validation/cabimas' }],
      home: '/validation/cabimas',
    });
    const cookie = res.cookies.find((c) => c.name === 'comando_sesion');
    expect(cookie?.httpOnly).toBe(true);
    const me = await t.request({ url: '/api/auth/session', headers: { cookie: `comando_sesion=${cookie?.value}` } });
    expect(me.json().user).toEqual({ email: 'ana@example.org', role: 'staff', mustChangePassword: false });
    const [row] = await listAudit(t.db.kysely, { action: 'auth.login' });
    expect(row?.actor_email).toBe('ana@example.org');
    expect(JSON.parse(row?.details ?? '{}')).toEqual({ provider: 'firebase' });
    const users = await accountsOf(t.db.kysely).listUsers();
    expect(users.find((u) => u.email === 'ana@example.org')?.lastLoginAt).not.toBeNull();
  });

  it('asks no Comando password: accounts are made without one, resets are refused, a stale flag is ignored', async () => {
    await firebaseApp();
    const cookieOf = (res: { cookies: { name: string; value: string }[] }) =>
      `comando_sesion=${res.cookies.find((c) => c.name === 'comando_sesion')?.value}`;
    const admin = cookieOf(await exchange(await firebase.idTokenFor('jefa@example.org')));
    const created = await t.request({
      method: 'POST',
      url: '/api/admin/users',
      headers: { cookie: admin },
      payload: { email: 'nuevo@example.org', role: 'staff', departments: ['cabimas'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().oneTimePassword).toBeNull();
    const withPassword = await t.request({
      method: 'POST',
      url: '/api/admin/users',
      headers: { cookie: admin },
      payload: { email: 'otro@example.org', role: 'staff', password: 'una-clave-123', departments: [] },
    });
    expect(withPassword.statusCode).toBe(400);
    expect(withPassword.json().message).toBe(
      'Con Firebase Auth las contraseñas se cambian en Firebase, no en Comando.',
    );
    const reset = await t.request({
      method: 'POST',
      url: `/api/admin/users/${created.json().user.id}/password`,
      headers: { cookie: admin },
      payload: {},
    });
    expect(reset.statusCode).toBe(409);

    // The new account signs in through Firebase and goes straight to its department.
    const session = await exchange(await firebase.idTokenFor('nuevo@example.org'));
    expect(session.json()).toMatchObject({ user: { mustChangePassword: false }, home: '/validation/cabimas' });
    expect(
      (await t.request({ url: '/api/validation/cabimas/records', headers: { cookie: cookieOf(session) } })).statusCode,
    ).toBe(200);
    // A flag left from local sign-in means nothing here.
    await t.db.kysely
      .updateTable('users')
      .set({ must_change_password: 1 })
      .where('email', '=', 'ana@example.org')
      .execute();
    const ana = await exchange(await firebase.idTokenFor('ana@example.org'));
    expect(ana.json().user.mustChangePassword).toBe(false);
    expect(
      (await t.request({ url: '/api/validation/cabimas/records', headers: { cookie: cookieOf(ana) } })).statusCode,
    ).toBe(200);
  });

  it('a person with a second factor gives a code after Firebase, before anything opens', async () => {
    await firebaseApp();
    const cookieOf = (res: Awaited<ReturnType<typeof exchange>>) =>
      `comando_sesion=${res.cookies.find((c) => c.name === 'comando_sesion')?.value}`;
    const first = cookieOf(await exchange(await firebase.idTokenFor('jefa@example.org')));
    const enrolled = await t.request({
      method: 'POST',
      url: '/api/auth/second-factor/enrol',
      headers: { cookie: first },
    });
    const { secret } = enrolled.json() as { secret: string };
    const code = TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() });
    const confirmed = await t.request({
      method: 'POST',
      url: '/api/auth/second-factor/confirm',
      headers: { cookie: first },
      payload: { code },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    const res = await exchange(await firebase.idTokenFor('jefa@example.org'));
    expect(res.json()).toMatchObject({
      user: { email: 'jefa@example.org', secondFactor: 'verify' },
      menu: [],
      home: null,
    });
    const cookie = cookieOf(res);
    expect((await t.request({ url: '/api/admin/users', headers: { cookie } })).statusCode).toBe(403);
    const { recoveryCodes } = confirmed.json() as { recoveryCodes: string[] };
    // A recovery code: this step's code from the app was taken by the confirmation.
    const verified = await t.request({
      method: 'POST',
      url: '/api/auth/second-factor/verify',
      headers: { cookie },
      payload: { code: recoveryCodes[0] },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const after = await t.request({ url: '/api/admin/users', headers: { cookie } });
    expect(after.statusCode, after.body).toBe(200);
  });

  it('admins land on Resultados, as with a password', async () => {
    await firebaseApp();
    const res = await exchange(await firebase.idTokenFor('jefa@example.org'));
    expect(res.statusCode).toBe(200);
    expect(res.json().home).toBe('/resultados');
  });

  it('fetches the signing keys once and keeps them for later sign-ins', async () => {
    await firebaseApp();
    const before = firebase.jwksFetches;
    for (let i = 0; i < 3; i++)
      expect((await exchange(await firebase.idTokenFor('ana@example.org'))).statusCode).toBe(200);
    expect(firebase.jwksFetches - before).toBe(1);
  });

  describe('never opens a session for', () => {
    it('a token signed by another key under the published key id (forged signature)', async () => {
      await firebaseApp();
      const { privateKey } = await generateKeyPair('RS256');
      const forged = await new SignJWT(claimsFor('ana@example.org'))
        .setProtectedHeader({ alg: 'RS256', kid: firebase.kid, typ: 'JWT' })
        .sign(privateKey);
      await expectRefused(forged);
    });

    it('a token signed by a key that is not published (unknown kid)', async () => {
      await firebaseApp();
      const { privateKey, publicKey } = await generateKeyPair('RS256');
      const kid = (await exportJWK(publicKey)).n?.slice(0, 16) ?? 'otra';
      const token = await new SignJWT(claimsFor('ana@example.org'))
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .sign(privateKey);
      await expectRefused(token);
    });

    it('an unsigned token (alg none, as the official emulator issues)', async () => {
      await firebaseApp();
      await expectRefused(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claimsFor('ana@example.org'))}.`);
    });

    it('a token signed with HS256 (algorithm confusion)', async () => {
      await firebaseApp();
      const token = await new SignJWT(claimsFor('ana@example.org'))
        .setProtectedHeader({ alg: 'HS256', kid: firebase.kid, typ: 'JWT' })
        .sign(new TextEncoder().encode('un-secreto-cualquiera-de-32-bytes!!'));
      await expectRefused(token);
    });

    it('an expired token', async () => {
      await firebaseApp();
      const now = nowS();
      await expectRefused(
        await firebase.idTokenFor('ana@example.org', { iat: now - 3700, auth_time: now - 3700, exp: now - 100 }),
      );
    });

    it('a token issued in the future', async () => {
      await firebaseApp();
      await expectRefused(await firebase.idTokenFor('ana@example.org', { iat: nowS() + 600 }));
    });

    it('a token whose sign-in time is in the future', async () => {
      await firebaseApp();
      await expectRefused(await firebase.idTokenFor('ana@example.org', { auth_time: nowS() + 600 }));
    });

    it('a token of another Firebase project', async () => {
      await firebaseApp();
      await expectRefused(
        await firebase.idTokenFor('ana@example.org', {
          aud: 'otro-proyecto',
          iss: 'https://securetoken.google.com/otro-proyecto',
        }),
      );
    });

    it('a token with our audience but another issuer', async () => {
      await firebaseApp();
      await expectRefused(
        await firebase.idTokenFor('ana@example.org', { iss: 'https://securetoken.google.com/otro-proyecto' }),
      );
      await expectRefused(await firebase.idTokenFor('ana@example.org', { iss: 'https://accounts.google.com' }));
    });

    it('a token without an e-mail, or without a subject', async () => {
      await firebaseApp();
      await expectRefused(await firebase.idTokenFor('ana@example.org', { email: undefined }));
      await expectRefused(await firebase.idTokenFor('ana@example.org', { sub: '' }));
    });

    it('a token from another sign-in method than e-mail and password', async () => {
      await firebaseApp();
      await expectRefused(
        await firebase.idTokenFor('ana@example.org', { firebase: { identities: {}, sign_in_provider: 'anonymous' } }),
      );
    });

    it('something that is not a token at all', async () => {
      await firebaseApp();
      await expectRefused('no-es-un-token');
      const empty = await exchange('');
      expect(empty.statusCode).toBe(400);
      expect(await sessionRows()).toBe(0);
    });

    it('a genuine token of an e-mail we have no account for', async () => {
      await firebaseApp();
      await expectRefused(await firebase.idTokenFor('nadie@example.org'));
    });

    it('a genuine token of a disabled account', async () => {
      await firebaseApp();
      await accountsOf(t.db.kysely).setDisabled('ana@example.org', true, {
        email: 'x',
        ip: null,
      });
      await expectRefused(await firebase.idTokenFor('ana@example.org'));
      const reasons = (await listAudit(t.db.kysely, { action: 'auth.login_failed' })).map((r) =>
        JSON.parse(r.details!),
      );
      expect(reasons).toEqual([{ provider: 'firebase', reason: 'disabled' }]);
    });
  });

  it('slows down an address that keeps sending bad tokens, even with a good one next', async () => {
    await firebaseApp();
    for (let i = 0; i < THROTTLE.addressLimit; i++) {
      expect((await exchange(`malo-${i}`, '10.9.9.9')).statusCode).toBe(401);
    }
    const blocked = await exchange(await firebase.idTokenFor('ana@example.org'), '10.9.9.9');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Demasiados intentos de inicio de sesión/);
    expect((await exchange(await firebase.idTokenFor('ana@example.org'), '10.9.9.10')).statusCode).toBe(200);
  });

  it('answers 503, not a wrong password, when the signing keys cannot be fetched', async () => {
    await firebaseApp({ jwksUrl: `${firebase.url}/no-hay-claves` });
    const res = await exchange(await firebase.idTokenFor('ana@example.org'));
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe(authMessages.providerUnavailable);
    expect(await sessionRows()).toBe(0);
  });

  it('does not exist while passwords are checked here', async () => {
    t = await createTestApp();
    const res = await exchange(await firebase.idTokenFor('ana@example.org'));
    expect(res.statusCode).toBe(404);
  });

  it('refuses a request from another origin, like every change', async () => {
    await firebaseApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/firebase',
      headers: { origin: 'https://otro.example' },
      payload: { idToken: await firebase.idTokenFor('ana@example.org') },
    });
    expect(res.statusCode).toBe(403);
    expect(await sessionRows()).toBe(0);
  });
});

describe('POST /api/auth/firebase with the official Auth emulator (FIREBASE_AUTH_EMULATOR_HOST)', () => {
  const emulator = { emulatorUrl: 'http://127.0.0.1:9099', emulatorTokens: true } as const;

  it('opens a session for an unsigned emulator token of a known account, as firebase-admin accepts it', async () => {
    await firebaseApp(emulator);
    const keyFetches = firebase.jwksFetches;
    const res = await exchange(firebase.emulatorTokenFor('ana@example.org'));
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toEqual({ email: 'ana@example.org', role: 'staff', mustChangePassword: false });
    expect(firebase.jwksFetches).toBe(keyFetches); // no keys: the emulator signs nothing
  });

  it('refuses the same unsigned token when the emulator is not configured', async () => {
    await firebaseApp();
    await expectRefused(firebase.emulatorTokenFor('ana@example.org'));
  });

  describe('still checks every claim of an emulator token, and refuses', () => {
    it.each([
      ['an expired one', () => ({ iat: nowS() - 3700, auth_time: nowS() - 3700, exp: nowS() - 100 })],
      ['one of another project', () => ({ aud: 'otro-proyecto', iss: 'https://securetoken.google.com/otro-proyecto' })],
      ['one with another issuer', () => ({ iss: 'https://accounts.google.com' })],
      ['one without an e-mail', () => ({ email: undefined })],
      ['one from another sign-in method', () => ({ firebase: { identities: {}, sign_in_provider: 'anonymous' } })],
    ])('%s', async (_name, claims) => {
      await firebaseApp(emulator);
      await expectRefused(firebase.emulatorTokenFor('ana@example.org', claims()));
    });

    it('a signed token, or one that names alg none but carries a signature (only unsigned ones, as firebase-admin)', async () => {
      await firebaseApp(emulator);
      await expectRefused(await firebase.idTokenFor('ana@example.org'));
      await expectRefused(`${firebase.emulatorTokenFor('ana@example.org')}firma`);
    });

    it('an emulator token of an e-mail we have no account for', async () => {
      await firebaseApp(emulator);
      await expectRefused(firebase.emulatorTokenFor('nadie@example.org'));
    });
  });
});

describe('password sign-in while Firebase checks passwords', () => {
  it('is refused before any password is looked at', async () => {
    await firebaseApp();
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'ana@example.org', password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(authMessages.wrongProvider);
    expect(await sessionRows()).toBe(0);
  });
});

describe('GET /api/auth/provider', () => {
  it('says local when passwords are checked here', async () => {
    t = await createTestApp();
    expect((await t.request({ url: '/api/auth/provider' })).json()).toEqual({ provider: 'local' });
  });

  it('gives the browser the web API key (and the emulator, when set) and nothing else', async () => {
    await firebaseApp({ emulatorUrl: 'http://127.0.0.1:9099' });
    const res = await t.request({ url: '/api/auth/provider' });
    expect(res.json()).toEqual({ provider: 'firebase', apiKey: API_KEY, emulatorUrl: 'http://127.0.0.1:9099' });
    expect(res.body).not.toContain(PROJECT);
    expect(res.body).not.toContain('jwk');
  });
});
