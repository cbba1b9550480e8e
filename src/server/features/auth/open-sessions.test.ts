import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { ConfigError, loadConfig } from '#server/platform/config/config';
import { createUser, TEST_PASSWORD } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import type { OpenSessions } from '#shared/features/auth/auth';
import { deviceOf } from './open-sessions.service';

let t: TestApp;
afterEach(async () => t?.close());

const ANA = 'ana@example.org';
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const DESKTOP_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** The app's clock, moved by hand. */
const clock = { now: Date.parse('2026-11-22T12:00:00Z') };

async function signInFrom(userAgent: string, email = ANA, remoteAddress = '127.0.0.1'): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress,
    headers: { 'user-agent': userAgent },
    payload: { email, password: TEST_PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'comando_sesion');
  return `comando_sesion=${cookie?.value}`;
}
const listAnswer = async (cookie: string) => {
  const res = await t.request({ url: '/api/auth/sessions', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as OpenSessions;
};
const list = async (cookie: string) => (await listAnswer(cookie)).sessions;

/** MaxMind's test database (github.com/maxmind/MaxMind-DB, test-data; MIT licence beside it). */
const CITY_TEST_DB = fileURLToPath(new URL('../../../../tests/fixtures/geoip/GeoIP2-City-Test.mmdb', import.meta.url));

/** Signs ANA in from each address (in turn, a minute apart) and answers each session's place by its IP. */
async function placesOf(addresses: string[]) {
  let cookie = '';
  for (const address of addresses) {
    cookie = await signInFrom(DESKTOP_UA, ANA, address);
    clock.now += 60_000;
  }
  const answer = await listAnswer(cookie);
  return {
    places: Object.fromEntries(answer.sessions.map((s) => [s.ip, s.place])),
    placeSource: answer.placeSource,
  };
}

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

  it('names the place of each IP from the city database: city and country where known, Red local, else nothing', async () => {
    clock.now = Date.parse('2026-11-22T12:00:00Z');
    t = await createTestApp({ now: () => new Date(clock.now), geoipDatabase: CITY_TEST_DB });
    await createUser(t.db, { email: ANA, role: 'staff', departments: ['cabimas'] });
    const { places, placeSource } = await placesOf([
      '81.2.69.142',
      '89.160.20.112',
      '8.8.8.8',
      '192.168.1.10',
      '10.20.30.40',
      '::ffff:172.16.5.4',
      '::1',
    ]);
    expect(places).toEqual({
      // Spanish names where the database has them, else English ones.
      '81.2.69.142': 'Londres, Reino Unido',
      '89.160.20.112': 'Linköping, Suecia',
      // Not in the database: no place is made up.
      '8.8.8.8': null,
      '192.168.1.10': 'Red local',
      '10.20.30.40': 'Red local',
      '::ffff:172.16.5.4': 'Red local',
      '::1': 'Red local',
    });
    expect(placeSource).toEqual({ text: 'GeoIP2-City', url: null });
  });

  it('without a city database: Red local for local addresses, nothing for the rest', async () => {
    clock.now = Date.parse('2026-11-22T12:00:00Z');
    t = await createTestApp({ now: () => new Date(clock.now) });
    await createUser(t.db, { email: ANA, role: 'staff', departments: ['cabimas'] });
    expect(await placesOf(['81.2.69.142', '127.0.0.1'])).toEqual({
      places: { '81.2.69.142': null, '127.0.0.1': 'Red local' },
      placeSource: null,
    });
  });

  it('a GEOIP_DATABASE that is missing, or is not a city database, stops the start with a clear message', async () => {
    const env = { NODE_ENV: 'test', DATA_DIR: '/tmp/comando-nada' };
    expect(loadConfig({ ...env, GEOIP_DATABASE: CITY_TEST_DB }).geoipDatabase).toBe(CITY_TEST_DB);
    const missing = path.join(os.tmpdir(), 'no-existe', 'dbip-city-lite.mmdb');
    expect(() => loadConfig({ ...env, GEOIP_DATABASE: missing })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, GEOIP_DATABASE: missing })).toThrow(`GEOIP_DATABASE: ${missing} no existe`);

    const notADatabase = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'comando-geoip-')), 'ciudades.mmdb');
    fs.writeFileSync(notADatabase, 'esto no es una base de datos');
    try {
      await expect(createTestApp({ geoipDatabase: notADatabase })).rejects.toThrow(
        `GEOIP_DATABASE: ${notADatabase} no es una base de datos de ciudades en formato MaxMind`,
      );
    } finally {
      fs.rmSync(path.dirname(notADatabase), { recursive: true, force: true });
    }
  });
});
