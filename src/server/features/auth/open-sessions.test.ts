import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createUser, TEST_PASSWORD } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { deviceOf } from './open-sessions.service';

let t: TestApp;
afterEach(async () => t?.close());

const ANA = 'ana@example.org';
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const DESKTOP_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** The app's clock, moved by hand. */
const clock = { now: Date.parse('2026-11-22T12:00:00Z') };

async function signInFrom(userAgent: string, email = ANA): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'user-agent': userAgent },
    payload: { email, password: TEST_PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'comando_sesion');
  return `comando_sesion=${cookie?.value}`;
}
const list = async (cookie: string) => {
  const res = await t.request({ url: '/api/auth/sessions', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().sessions as { id: number; device: string; ip: string; lastUsedAt: string; current: boolean }[];
};

describe('Sesiones abiertas', () => {
  it('names browsers in words', () => {
    expect(deviceOf(PHONE_UA)).toBe('Chrome en Android (teléfono)');
    expect(deviceOf(DESKTOP_UA)).toBe('Firefox en Windows (computadora)');
    expect(deviceOf(null)).toBe('Dispositivo desconocido');
  });

  it('lists the person’s own sessions with device, IP and last use, and ends any one of them', async () => {
    clock.now = Date.parse('2026-11-22T12:00:00Z');
    t = await createTestApp({ now: () => new Date(clock.now) });
    await createUser(t.db, { email: ANA, role: 'staff', departments: ['cabimas'] });
    await createUser(t.db, { email: 'otra@example.org', role: 'staff', departments: ['cabimas'] });
    const phone = await signInFrom(PHONE_UA);
    clock.now += 10 * 60_000;
    const desktop = await signInFrom(DESKTOP_UA);
    const other = await signInFrom(DESKTOP_UA, 'otra@example.org');
    clock.now += 15 * 60_000;
    // The phone is used again at 12:25: its last use moves on.
    expect((await t.request({ url: '/api/auth/session', headers: { cookie: phone } })).json().user.email).toBe(ANA);
    clock.now += 15 * 60_000;

    const sessions = await list(desktop);
    expect(sessions.map((s) => [s.device, s.current, s.lastUsedAt])).toEqual([
      // This one, used by this very request.
      ['Firefox en Windows (computadora)', true, '2026-11-22T12:40:00.000Z'],
      ['Chrome en Android (teléfono)', false, '2026-11-22T12:25:00.000Z'],
    ]);
    expect(sessions[0]?.ip).toBe('127.0.0.1');
    const phoneSession = sessions[1]?.id as number;
    const othersSession = (await list(other))[0]?.id as number;

    // Someone else's session is not theirs to end: the same answer as one that does not exist.
    const foreign = await t.request({
      method: 'DELETE',
      url: `/api/auth/sessions/${othersSession}`,
      headers: { cookie: desktop },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Esa sesión ya no está abierta.');
    expect((await list(other)).length).toBe(1);

    const ended = await t.request({
      method: 'DELETE',
      url: `/api/auth/sessions/${phoneSession}`,
      headers: { cookie: desktop },
    });
    expect(ended.json()).toEqual({ ended: true, current: false });
    expect((await t.request({ url: '/api/auth/session', headers: { cookie: phone } })).json().user).toBeNull();
    expect((await list(desktop)).length).toBe(1);
    const [row] = await listAudit(t.db.kysely, { action: 'auth.session_end' });
    expect(row).toMatchObject({ actor_email: ANA, target: ANA });

    // Ending this very session signs this browser out.
    const self = await t.request({
      method: 'DELETE',
      url: `/api/auth/sessions/${sessions[0]?.id}`,
      headers: { cookie: desktop },
    });
    expect(self.json()).toEqual({ ended: true, current: true });
    expect(self.headers['set-cookie']).toEqual(expect.stringContaining('comando_sesion=;'));
  });
});
