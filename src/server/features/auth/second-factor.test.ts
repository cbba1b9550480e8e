import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '#server/cli';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createUser, loginAs } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import type { AdminUser } from '#shared/features/people/people';

let t: TestApp;
afterEach(async () => t?.close());

const ADMIN = 'jefa@example.org';
const OTHER_ADMIN = 'segunda@example.org';
const VALIDATOR = 'ana@example.org';

/** The app's clock, moved by hand: codes depend on the 30-second step, never on the machine's speed. */
const clock = { now: Date.parse('2026-11-22T12:00:00Z') };
const later = (seconds: number) => {
  clock.now += seconds * 1000;
};

/** The code an authenticator app shows for `secret` at the app's time (or `offsetSteps` steps away). */
const codeOf = (secret: string, offsetSteps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now + offsetSteps * 30_000 });

async function setup(options: { required?: boolean } = {}) {
  clock.now = Date.parse('2026-11-22T12:00:00Z');
  t = await createTestApp({ now: () => new Date(clock.now) });
  await createUser(t.db, { email: ADMIN, role: 'admin' });
  await createUser(t.db, { email: OTHER_ADMIN, role: 'admin' });
  await createUser(t.db, { email: VALIDATOR, role: 'staff', departments: ['cabimas'] });
  if (options.required) {
    const cookie = await loginAs(t, OTHER_ADMIN);
    const current = (await t.request({ url: '/api/admin/settings', headers: { cookie } })).json();
    const saved = await t.request({
      method: 'PUT',
      url: '/api/admin/settings',
      headers: { cookie },
      payload: { ...current, requireSecondFactorAdmins: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().requireSecondFactorAdmins).toBe(true);
  }
}

const session = async (cookie: string) => (await t.request({ url: '/api/auth/session', headers: { cookie } })).json();
const post = (cookie: string, url: string, payload?: object) =>
  t.request({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });

/** Enrols `email` from a signed-in session: the secret from the answer, confirmed with its code. */
async function enrol(cookie: string) {
  const started = await post(cookie, '/api/auth/second-factor/enrol');
  expect(started.statusCode, started.body).toBe(200);
  const { secret, uri, qrSvg } = started.json() as { secret: string; uri: string; qrSvg: string };
  expect(uri).toMatch(/^otpauth:\/\/totp\/Comando:.+\?.*secret=/);
  expect(qrSvg).toMatch(/^<svg[^>]*>.*<\/svg>\s*$/s);
  const confirmed = await post(cookie, '/api/auth/second-factor/confirm', { code: codeOf(secret) });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret, recoveryCodes: confirmed.json().recoveryCodes as string[] };
}

describe('the second factor (TOTP)', () => {
  it('enrols with a QR code and one code, then every sign-in asks for a code before anything opens', async () => {
    await setup();
    const first = await loginAs(t, ADMIN);
    const { secret, recoveryCodes } = await enrol(first);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await t.db.kysely.selectFrom('recovery_codes').select('code_hash').execute();
    expect(stored.map((r) => r.code_hash)).not.toContain(recoveryCodes[0]);
    // Confirmed with this session: it owes nothing.
    expect((await session(first)).user.secondFactor).toBeUndefined();

    later(60);
    const cookie = await loginAs(t, ADMIN);
    expect(await session(cookie)).toMatchObject({
      user: { email: ADMIN, secondFactor: 'verify' },
      menu: [],
      home: null,
    });
    const blocked = await t.request({ url: '/api/admin/users', headers: { cookie } });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().message).toBe('Antes de continuar, escribe el código de tu aplicación de autenticación.');

    const verified = await post(cookie, '/api/auth/second-factor/verify', { code: codeOf(secret) });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().user.secondFactor).toBeUndefined();
    expect(verified.json().menu.length).toBeGreaterThan(0);
    expect((await t.request({ url: '/api/admin/users', headers: { cookie } })).statusCode).toBe(200);

    const actions = (await listAudit(t.db.kysely, { limit: 50 })).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['auth.second_factor_enrol', 'auth.second_factor']));
  });

  it('a code already used is refused, on the same step and on the one before', async () => {
    await setup();
    const { secret } = await enrol(await loginAs(t, ADMIN));
    later(90);
    const a = await loginAs(t, ADMIN);
    const code = codeOf(secret);
    expect((await post(a, '/api/auth/second-factor/verify', { code })).statusCode).toBe(200);
    const b = await loginAs(t, ADMIN);
    const replay = await post(b, '/api/auth/second-factor/verify', { code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe('El código no es correcto o ya se usó. Espera el siguiente e intenta de nuevo.');
    // The previous step's code is still within the drift allowed, but older than the one taken.
    expect((await post(b, '/api/auth/second-factor/verify', { code: codeOf(secret, -1) })).statusCode).toBe(400);
    later(30);
    expect((await post(b, '/api/auth/second-factor/verify', { code: codeOf(secret) })).statusCode).toBe(200);
  });

  it('a recovery code opens the session once, and is spent', async () => {
    await setup();
    const { recoveryCodes } = await enrol(await loginAs(t, ADMIN));
    const code = recoveryCodes[3] as string;
    const a = await loginAs(t, ADMIN);
    const used = await post(a, '/api/auth/second-factor/verify', { code: code.toUpperCase() });
    expect(used.statusCode, used.body).toBe(200);
    expect((await t.request({ url: '/api/auth/second-factor', headers: { cookie: a } })).json()).toEqual({
      enabled: true,
      recoveryCodesLeft: 9,
    });
    const b = await loginAs(t, ADMIN);
    expect((await post(b, '/api/auth/second-factor/verify', { code })).statusCode).toBe(400);
    expect((await session(b)).user.secondFactor).toBe('verify');
  });

  it('wrong codes are throttled like passwords: after five, a wait, even for the right code', async () => {
    await setup();
    const { secret } = await enrol(await loginAs(t, ADMIN));
    later(60);
    const cookie = await loginAs(t, ADMIN);
    const right = codeOf(secret);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      expect((await post(cookie, '/api/auth/second-factor/verify', { code: wrong })).statusCode).toBe(400);
    }
    const throttled = await post(cookie, '/api/auth/second-factor/verify', { code: right });
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().message).toMatch(/^Demasiados intentos de inicio de sesión\. Intenta de nuevo en/);
    later(31);
    expect((await post(cookie, '/api/auth/second-factor/verify', { code: codeOf(secret) })).statusCode).toBe(200);
  });

  it('wrong codes from many addresses hit an account-wide limit; the owner’s recovery code still opens', async () => {
    await setup();
    const { secret, recoveryCodes } = await enrol(await loginAs(t, ADMIN));
    later(60);
    // Someone who knows the password tries 5 codes (each address's own limit) from each of 20 addresses.
    const stranger = await loginAs(t, ADMIN);
    const right = codeOf(secret);
    const wrong = right === '000000' ? '111111' : '000000';
    const answers: number[] = [];
    for (let address = 1; address <= 20; address++) {
      for (let i = 0; i < 5; i++) {
        const answer = await t.request({
          method: 'POST',
          url: '/api/auth/second-factor/verify',
          headers: { cookie: stranger },
          remoteAddress: `203.0.113.${address}`,
          payload: { code: wrong },
        });
        answers.push(answer.statusCode);
      }
    }
    // Ten wrong codes are checked; the other ninety are refused without being looked at.
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(answers.slice(10)).toEqual(Array(90).fill(429));

    // From yet another address, even the right six-digit code waits...
    const owner = await loginAs(t, ADMIN);
    const fromOwner = (code: string) =>
      t.request({
        method: 'POST',
        url: '/api/auth/second-factor/verify',
        headers: { cookie: owner },
        remoteAddress: '198.51.100.7',
        payload: { code },
      });
    expect((await fromOwner(codeOf(secret))).statusCode).toBe(429);
    // ...but the owner's recovery code opens the session.
    const recovered = await fromOwner(recoveryCodes[0] as string);
    expect(recovered.statusCode, recovered.body).toBe(200);
    expect((await session(owner)).user.secondFactor).toBeUndefined();

    // The wait ends: the account's six-digit codes are checked again.
    later(31);
    const next = await loginAs(t, ADMIN);
    expect((await post(next, '/api/auth/second-factor/verify', { code: codeOf(secret) })).statusCode).toBe(200);
  });

  it('with the setting on, an admin without a second factor must enrol at the next sign-in; a validator need not', async () => {
    await setup({ required: true });
    const cookie = await loginAs(t, ADMIN);
    expect(await session(cookie)).toMatchObject({ user: { secondFactor: 'enrol' }, menu: [] });
    const blocked = await t.request({ url: '/api/admin/users', headers: { cookie } });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().message).toBe(
      'Antes de continuar, configura el segundo factor: es obligatorio para los administradores.',
    );
    await enrol(cookie);
    expect((await t.request({ url: '/api/admin/users', headers: { cookie } })).statusCode).toBe(200);

    const validator = await loginAs(t, VALIDATOR);
    expect((await session(validator)).user.secondFactor).toBeUndefined();
    expect(
      (await t.request({ url: '/api/validation/cabimas/records', headers: { cookie: validator } })).statusCode,
    ).toBe(200);
  });

  it('an admin resets another admin’s factor (audited, sessions ended); never their own', async () => {
    await setup();
    const own = await loginAs(t, ADMIN);
    await enrol(own);
    const other = await loginAs(t, OTHER_ADMIN);
    const adminId = (
      await t.db.kysely.selectFrom('users').select('id').where('email', '=', ADMIN).executeTakeFirstOrThrow()
    ).id;
    const otherId = (
      await t.db.kysely.selectFrom('users').select('id').where('email', '=', OTHER_ADMIN).executeTakeFirstOrThrow()
    ).id;
    const self = await post(other, `/api/admin/users/${otherId}/second-factor/reset`);
    expect(self.statusCode).toBe(409);
    // Personas says who has one: the list of accounts, and each account's answer.
    const listed = async () =>
      Object.fromEntries(
        ((await t.request({ url: '/api/admin/users', headers: { cookie: other } })).json().items as AdminUser[]).map(
          (u) => [u.email, u.secondFactor],
        ),
      );
    expect(await listed()).toEqual({ [ADMIN]: true, [OTHER_ADMIN]: false, [VALIDATOR]: false });

    const reset = await post(other, `/api/admin/users/${adminId}/second-factor/reset`);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().user).toMatchObject({ email: ADMIN, secondFactor: false });
    expect(await listed()).toEqual({ [ADMIN]: false, [OTHER_ADMIN]: false, [VALIDATOR]: false });
    expect((await session(own)).user).toBeNull();
    const audit = (await listAudit(t.db.kysely, { limit: 50 })).find((r) => r.action === 'user.second_factor_reset');
    expect(audit).toMatchObject({ actor_email: OTHER_ADMIN, target: ADMIN });
    // Next sign-in: the password alone (the setting is off here).
    expect((await session(await loginAs(t, ADMIN))).user.secondFactor).toBeUndefined();
  });

  it('a one-time password of someone with a second factor: the code first, then the new password', async () => {
    await setup();
    const { secret } = await enrol(await loginAs(t, VALIDATOR));
    const admin = await loginAs(t, OTHER_ADMIN);
    const id = (
      await t.db.kysely.selectFrom('users').select('id').where('email', '=', VALIDATOR).executeTakeFirstOrThrow()
    ).id;
    const reset = await post(admin, `/api/admin/users/${id}/password`, {});
    expect(reset.statusCode, reset.body).toBe(200);
    later(60);
    const cookie = await loginAs(t, VALIDATOR, reset.json().oneTimePassword as string);
    expect((await session(cookie)).user).toMatchObject({ secondFactor: 'verify', mustChangePassword: true });
    const early = await post(cookie, '/api/auth/password', { newPassword: 'mi-clave-nueva-2026' });
    expect(early.statusCode).toBe(403);
    expect((await post(cookie, '/api/auth/second-factor/verify', { code: codeOf(secret) })).statusCode).toBe(200);
    expect((await post(cookie, '/api/auth/password', { newPassword: 'mi-clave-nueva-2026' })).statusCode).toBe(200);
    expect((await t.request({ url: '/api/validation/cabimas/records', headers: { cookie } })).statusCode).toBe(200);
  });

  it('the command line resets the factor of the last admin', async () => {
    await setup();
    await enrol(await loginAs(t, ADMIN));
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l), readPassword: async () => '' };
    expect(await runCli(['user:second-factor-reset', ADMIN], t.db.kysely, io, () => new Date(clock.now))).toBe(0);
    expect(lines.join('\n')).toContain('Segundo factor quitado a jefa@example.org');
    expect((await session(await loginAs(t, ADMIN))).user.secondFactor).toBeUndefined();
    expect(await runCli(['user:second-factor-reset', ADMIN], t.db.kysely, io, () => new Date(clock.now))).toBe(1);
  });
});
