import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createUser, loginAs } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import type { DeviceReport } from '#shared/features/field/field';

let t: TestApp;
afterEach(async () => t?.close());

const MINUTE = 60_000;
let now = new Date('2026-12-06T14:00:00Z');
const ago = (minutes: number) => new Date(now.getTime() - minutes * MINUTE).toISOString();

const PEOPLE = {
  ana: 'ana@example.org',
  beto: 'beto@example.org',
  coordinadora: 'coordinadora@example.org',
  otra: 'otra@example.org',
  jefa: 'jefa@example.org',
};

async function setup() {
  now = new Date('2026-12-06T14:00:00Z');
  t = await createTestApp({ now: () => now });
  await createUser(t.db, { email: PEOPLE.ana, role: 'staff', departments: ['cabimas'] });
  await createUser(t.db, { email: PEOPLE.beto, role: 'staff', departments: ['cabimas', 'lagunillas'] });
  await createUser(t.db, { email: PEOPLE.coordinadora, role: 'staff', departments: ['cabimas'] });
  await createUser(t.db, { email: PEOPLE.otra, role: 'staff', departments: ['lagunillas'] });
  await createUser(t.db, { email: PEOPLE.jefa, role: 'admin' });
  const cookies: Record<keyof typeof PEOPLE, string> = {
    ana: await loginAs(t, PEOPLE.ana),
    beto: await loginAs(t, PEOPLE.beto),
    coordinadora: await loginAs(t, PEOPLE.coordinadora),
    otra: await loginAs(t, PEOPLE.otra),
    jefa: await loginAs(t, PEOPLE.jefa),
  };
  return cookies;
}

const report = (cookie: string, body: Partial<DeviceReport> & { deviceId: string }) =>
  t.request({
    method: 'POST',
    url: '/api/field/reports',
    headers: { cookie },
    payload: {
      deviceNow: now.toISOString(),
      waiting: 0,
      oldestWaitingAt: null,
      lastSuccessAt: null,
      lastError: null,
      departments: [],
      ...body,
    },
  });

const view = (cookie: string, slug = 'cabimas') => t.request({ url: `/api/field/${slug}`, headers: { cookie } });

describe('field view', () => {
  it('shows a coordinator, per validator of the department, what waits on their phones, since when and the last error', async () => {
    const c = await setup();
    const phone = randomUUID();
    const res = await report(c.ana, {
      deviceId: phone,
      waiting: 3,
      oldestWaitingAt: ago(4),
      lastSuccessAt: ago(6),
      lastError: { message: 'No hay conexión con el servidor.', at: ago(1) },
      departments: [{ slug: 'cabimas', waiting: 3, oldestWaitingAt: ago(4) }],
    });
    expect(res.statusCode).toBe(200);

    const seen = await view(c.coordinadora);
    expect(seen.statusCode).toBe(200);
    const body = seen.json();
    expect(body).toMatchObject({
      slug: 'cabimas',
      title: 'Cabimas',
      generatedAt: now.toISOString(),
      stuckAfterMinutes: 10,
    });
    expect(body.validators).toEqual([
      {
        email: PEOPLE.ana,
        lastSeenAt: now.toISOString(),
        waiting: 3,
        oldestWaitingAt: ago(4),
        lastSuccessAt: ago(6),
        lastError: { message: 'No hay conexión con el servidor.', at: ago(1) },
        stuck: false,
        devices: 1,
      },
      // Every member of the list is shown, also those whose phone never reported.
      expect.objectContaining({ email: PEOPLE.beto, lastSeenAt: null, waiting: 0, stuck: false, devices: 0 }),
      expect.objectContaining({ email: PEOPLE.coordinadora, lastSeenAt: null, waiting: 0 }),
    ]);
    expect(seen.headers['cache-control']).toBe('no-store');
  });

  it('puts first, as stuck, whoever has had items waiting more than ten minutes, and clears them when they arrive', async () => {
    const c = await setup();
    const phone = randomUUID();
    await report(c.beto, {
      deviceId: phone,
      waiting: 2,
      oldestWaitingAt: ago(9),
      departments: [{ slug: 'cabimas', waiting: 2, oldestWaitingAt: ago(9) }],
    });
    expect((await view(c.coordinadora)).json().validators[0]).toMatchObject({ email: PEOPLE.beto, stuck: false });

    // Two minutes later, nothing arrived and the phone said nothing more.
    now = new Date(now.getTime() + 2 * MINUTE);
    const later = (await view(c.coordinadora)).json();
    expect(later.validators[0]).toMatchObject({ email: PEOPLE.beto, waiting: 2, stuck: true });

    // The items arrive: the phone says so, and Beto is no longer stuck.
    await report(c.beto, { deviceId: phone, waiting: 0, lastSuccessAt: now.toISOString(), departments: [] });
    const cleared = (await view(c.coordinadora)).json();
    expect(cleared.validators.find((v: { email: string }) => v.email === PEOPLE.beto)).toMatchObject({
      waiting: 0,
      oldestWaitingAt: null,
      stuck: false,
      lastSuccessAt: now.toISOString(),
    });
  });

  it('adds up a person’s phones for the department asked, and counts only that department', async () => {
    const c = await setup();
    await report(c.beto, {
      deviceId: randomUUID(),
      waiting: 5,
      oldestWaitingAt: ago(30),
      departments: [
        { slug: 'cabimas', waiting: 1, oldestWaitingAt: ago(3) },
        { slug: 'lagunillas', waiting: 4, oldestWaitingAt: ago(30) },
      ],
    });
    await report(c.beto, {
      deviceId: randomUUID(),
      waiting: 2,
      oldestWaitingAt: ago(5),
      departments: [{ slug: 'cabimas', waiting: 2, oldestWaitingAt: ago(5) }],
    });
    const cabimas = (await view(c.coordinadora)).json().validators[0];
    expect(cabimas).toMatchObject({
      email: PEOPLE.beto,
      waiting: 3,
      oldestWaitingAt: ago(5),
      stuck: false,
      devices: 2,
    });
    const lagunillas = (await view(c.otra, 'lagunillas')).json().validators;
    expect(lagunillas[0]).toMatchObject({ email: PEOPLE.beto, waiting: 4, stuck: true });
  });

  it('puts a phone’s times on the server’s clock when the phone’s clock is off', async () => {
    const c = await setup();
    // The phone believes it is two hours earlier.
    const phoneNow = new Date(now.getTime() - 120 * MINUTE);
    await report(c.ana, {
      deviceId: randomUUID(),
      deviceNow: phoneNow.toISOString(),
      waiting: 1,
      oldestWaitingAt: new Date(phoneNow.getTime() - 15 * MINUTE).toISOString(),
      departments: [
        { slug: 'cabimas', waiting: 1, oldestWaitingAt: new Date(phoneNow.getTime() - 15 * MINUTE).toISOString() },
      ],
    });
    expect((await view(c.coordinadora)).json().validators[0]).toMatchObject({
      email: PEOPLE.ana,
      oldestWaitingAt: ago(15),
      stuck: true,
    });
  });

  it('lets admins and the department’s list see it; anyone else gets the same 404 as an unknown department', async () => {
    const c = await setup();
    expect((await view(c.jefa)).statusCode).toBe(200);
    expect((await view(c.ana)).statusCode).toBe(200);
    expect((await view(c.otra)).statusCode).toBe(404);
    expect((await view(c.otra, 'no-existe')).body).toBe((await view(c.otra)).body);
    expect((await view(c.jefa, 'resultados')).statusCode).toBe(404);
    expect((await t.request({ url: '/api/field/cabimas' })).statusCode).toBe(401);
    expect((await report('', { deviceId: randomUUID() })).statusCode).toBe(401);

    const mine = (await t.request({ url: '/api/field', headers: { cookie: c.beto } })).json();
    expect(mine.departments).toEqual([
      { slug: 'cabimas', title: 'Cabimas' },
      { slug: 'lagunillas', title: 'Lagunillas' },
    ]);
    const all = (await t.request({ url: '/api/field', headers: { cookie: c.jefa } })).json();
    expect(all.departments.length).toBeGreaterThan(20);
    expect(all.departments.map((d: { slug: string }) => d.slug)).not.toContain('resultados');
  });

  it('refuses a report that is not one, with a Spanish message', async () => {
    const c = await setup();
    const res = await report(c.ana, { deviceId: 'no-es-un-uuid' });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe('string');
  });
});
