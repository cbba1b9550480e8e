import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { recordRestoredEpoch } from '#server/platform/replica/epoch';
import { createUser, loginAs } from '#server/testing/auth-helpers';
import { addStoredPhoto } from '#server/testing/photos';
import { addRecords, castVote } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import {
  type DeviceReport,
  FIELD_DEVICES_PER_PERSON,
  FIELD_REPORT_MAX_ITEMS,
  FIELD_REPORTS_PER_MINUTE,
  type FieldItem,
} from '#shared/features/field/field';

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

/** Records of Cabimas and of Lagunillas, by position. */
let cabimas: number[] = [];
let lagunillas: number[] = [];

async function setup() {
  now = new Date('2026-12-06T14:00:00Z');
  t = await createTestApp({ now: () => now });
  await createUser(t.db, { email: PEOPLE.ana, role: 'staff', departments: ['cabimas'] });
  await createUser(t.db, { email: PEOPLE.beto, role: 'staff', departments: ['cabimas', 'lagunillas'] });
  await createUser(t.db, { email: PEOPLE.coordinadora, role: 'staff', departments: ['cabimas'] });
  await createUser(t.db, { email: PEOPLE.otra, role: 'staff', departments: ['lagunillas'] });
  await createUser(t.db, { email: PEOPLE.jefa, role: 'admin' });
  cabimas = await addRecords(t, 'cabimas', 30);
  lagunillas = await addRecords(t, 'lagunillas', 10);
  const cookies: Record<keyof typeof PEOPLE, string> = {
    ana: await loginAs(t, PEOPLE.ana),
    beto: await loginAs(t, PEOPLE.beto),
    coordinadora: await loginAs(t, PEOPLE.coordinadora),
    otra: await loginAs(t, PEOPLE.otra),
    jefa: await loginAs(t, PEOPLE.jefa),
  };
  return cookies;
}

/** An item waiting on a phone: a vote (or a photo) of a record, saved `minutes` ago. */
const item = (recordId: number, minutes: number, kind: FieldItem['kind'] = 'vote', slug = 'cabimas'): FieldItem => ({
  key: randomUUID(),
  slug,
  recordId,
  kind,
  savedAt: ago(minutes),
});

const report = (cookie: string, body: Partial<DeviceReport> & { deviceId: string }) =>
  t.request({
    method: 'POST',
    url: '/api/field/reports',
    headers: { cookie },
    payload: {
      deviceNow: now.toISOString(),
      lastSuccessAt: null,
      lastError: null,
      items: [],
      ...body,
    },
  });

const view = (cookie: string, slug = 'cabimas') => t.request({ url: `/api/field/${slug}`, headers: { cookie } });
const lineOf = async (cookie: string, email: string, slug = 'cabimas') =>
  (await view(cookie, slug)).json().validators.find((v: { email: string }) => v.email === email);
const overview = (cookie: string) => t.request({ url: '/api/field', headers: { cookie } });

describe('field view', () => {
  it('shows a coordinator, per validator of the department, what waits on their phones, since when and the last error', async () => {
    const c = await setup();
    const res = await report(c.ana, {
      deviceId: randomUUID(),
      lastSuccessAt: ago(6),
      lastError: { message: 'No hay conexión con el servidor.', at: ago(1) },
      items: [item(cabimas[0]!, 4), item(cabimas[0]!, 3, 'gobernador'), item(cabimas[1]!, 2)],
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

  it('puts first, as stuck, whoever has had items waiting more than ten minutes, and clears them when the phone says they left', async () => {
    const c = await setup();
    const phone = randomUUID();
    await report(c.beto, { deviceId: phone, items: [item(cabimas[2]!, 9), item(cabimas[3]!, 8)] });
    expect((await view(c.coordinadora)).json().validators[0]).toMatchObject({ email: PEOPLE.beto, stuck: false });

    // Two minutes later, nothing arrived and the phone said nothing more.
    now = new Date(now.getTime() + 2 * MINUTE);
    expect((await view(c.coordinadora)).json().validators[0]).toMatchObject({
      email: PEOPLE.beto,
      waiting: 2,
      stuck: true,
    });

    await report(c.beto, { deviceId: phone, lastSuccessAt: now.toISOString(), items: [] });
    expect(await lineOf(c.coordinadora, PEOPLE.beto)).toMatchObject({
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
      items: [item(cabimas[0]!, 3), ...lagunillas.slice(0, 4).map((id) => item(id, 30, 'vote', 'lagunillas'))],
    });
    await report(c.beto, { deviceId: randomUUID(), items: [item(cabimas[1]!, 5), item(cabimas[1]!, 4, 'an')] });
    expect(await lineOf(c.coordinadora, PEOPLE.beto)).toMatchObject({
      waiting: 3,
      oldestWaitingAt: ago(5),
      stuck: false,
      devices: 2,
    });
    expect(await lineOf(c.otra, PEOPLE.beto, 'lagunillas')).toMatchObject({ waiting: 4, stuck: true });
  });

  it('puts a phone’s times on the server’s clock when the phone’s clock is off', async () => {
    const c = await setup();
    // The phone believes it is two hours earlier.
    const phoneNow = new Date(now.getTime() - 120 * MINUTE);
    await report(c.ana, {
      deviceId: randomUUID(),
      deviceNow: phoneNow.toISOString(),
      items: [{ ...item(cabimas[0]!, 0), savedAt: new Date(phoneNow.getTime() - 15 * MINUTE).toISOString() }],
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
    expect((await t.request({ url: '/api/field' })).statusCode).toBe(401);
    expect((await report('', { deviceId: randomUUID() })).statusCode).toBe(401);
  });

  it('refuses a report that is not one, with a Spanish message: a bad id, too many items, an item twice', async () => {
    const c = await setup();
    const bad = await report(c.ana, { deviceId: 'no-es-un-uuid' });
    expect(bad.statusCode).toBe(400);
    expect(typeof bad.json().message).toBe('string');
    const tooMany = Array.from({ length: FIELD_REPORT_MAX_ITEMS + 1 }, () => item(cabimas[0]!, 1));
    expect((await report(c.ana, { deviceId: randomUUID(), items: tooMany })).statusCode).toBe(400);
    const once = item(cabimas[0]!, 1);
    expect((await report(c.ana, { deviceId: randomUUID(), items: [once, once] })).statusCode).toBe(400);
    // The counts of before are not believed any more: only named items count.
    const old = await t.request({
      method: 'POST',
      url: '/api/field/reports',
      headers: { cookie: c.ana },
      payload: {
        deviceId: randomUUID(),
        deviceNow: now.toISOString(),
        waiting: 100_000,
        oldestWaitingAt: ago(60),
        lastSuccessAt: null,
        lastError: null,
        departments: [{ slug: 'cabimas', waiting: 100_000, oldestWaitingAt: ago(60) }],
      },
    });
    expect(old.statusCode).toBe(400);
    expect(await lineOf(c.coordinadora, PEOPLE.ana)).toMatchObject({ waiting: 0 });
  });
});

describe('what the server received since', () => {
  it('leaves out an item whose vote or photo arrived after the phone’s last report (a phone closed right after sending)', async () => {
    const c = await setup();
    const [voted, photographed, pending] = [cabimas[0]!, cabimas[1]!, cabimas[2]!];
    await report(c.ana, {
      deviceId: randomUUID(),
      items: [item(voted, 20), item(photographed, 15, 'gobernador'), item(pending, 12, 'clez')],
    });
    expect(await lineOf(c.coordinadora, PEOPLE.ana)).toMatchObject({
      waiting: 3,
      stuck: true,
      oldestWaitingAt: ago(20),
    });

    // The vote and the photo arrive; the phone is closed before it says so.
    await castVote(t, voted, ['FA'], PEOPLE.ana);
    await addStoredPhoto(t, photographed, 'gobernador');
    expect(await lineOf(c.coordinadora, PEOPLE.ana)).toMatchObject({
      waiting: 1,
      stuck: true,
      oldestWaitingAt: ago(12),
    });

    // The last one arrives too: nothing waits, nobody is stuck, the green all-clear is true.
    await addStoredPhoto(t, pending, 'clez');
    expect(await lineOf(c.coordinadora, PEOPLE.ana)).toMatchObject({ waiting: 0, stuck: false, oldestWaitingAt: null });
    expect((await overview(c.coordinadora)).json().departments[0]).toMatchObject({
      slug: 'cabimas',
      stuck: 0,
      waiting: 0,
    });
  });

  it('counts an item only for a record of its department (a made-up record is nobody’s)', async () => {
    const c = await setup();
    await report(c.ana, {
      deviceId: randomUUID(),
      items: [item(lagunillas[0]!, 20, 'vote', 'cabimas'), item(999_999, 20), item(cabimas[0]!, 1)],
    });
    expect(await lineOf(c.coordinadora, PEOPLE.ana)).toMatchObject({ waiting: 1, stuck: false });
  });

  it('takes a later report of the person’s other phone into account: added to the first, and what arrives through it clears the first', async () => {
    const c = await setup();
    const first = randomUUID();
    const second = randomUUID();
    await report(c.beto, { deviceId: first, items: [item(cabimas[4]!, 30)] });
    now = new Date(now.getTime() + 5 * MINUTE);
    // The other phone has nothing waiting: the first one still holds its vote, so Beto is still stuck.
    await report(c.beto, { deviceId: second, items: [] });
    expect(await lineOf(c.coordinadora, PEOPLE.beto)).toMatchObject({
      waiting: 1,
      stuck: true,
      devices: 2,
      lastSeenAt: now.toISOString(),
    });
    // Beto votes that record again from the second phone: the first phone's item is no longer waited for.
    await castVote(t, cabimas[4]!, ['NR'], PEOPLE.beto);
    expect(await lineOf(c.coordinadora, PEOPLE.beto)).toMatchObject({ waiting: 0, stuck: false, devices: 2 });
  });

  it('lets a coordinator clear a phone that went quiet, audited; a phone that still holds its items says so again', async () => {
    const c = await setup();
    const phone = randomUUID();
    await report(c.ana, { deviceId: phone, items: [item(cabimas[5]!, 40), item(cabimas[6]!, 35)] });
    const clear = (cookie: string, slug = 'cabimas', email = PEOPLE.ana) =>
      t.request({ method: 'POST', url: `/api/field/${slug}/clear`, headers: { cookie }, payload: { email } });

    // Only those who see the department's field.
    expect((await clear(c.otra)).statusCode).toBe(404);
    expect((await clear('')).statusCode).toBe(401);

    const res = await clear(c.coordinadora);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ cleared: 2 });
    expect(await lineOf(c.coordinadora, PEOPLE.ana)).toMatchObject({ waiting: 0, stuck: false, devices: 1 });
    const [audit] = await listAudit(t.db.kysely, { action: 'field.clear' });
    expect(audit).toMatchObject({
      actor_email: PEOPLE.coordinadora,
      department_slug: 'cabimas',
      target: PEOPLE.ana,
      details: JSON.stringify({ items: 2 }),
    });

    now = new Date(now.getTime() + MINUTE);
    await report(c.ana, { deviceId: phone, items: [item(cabimas[5]!, 41)] });
    expect(await lineOf(c.coordinadora, PEOPLE.ana)).toMatchObject({ waiting: 1, stuck: true });
  });
});

describe('all departments at once', () => {
  it('opens on every department the person may see, those with someone stuck first, and lists whoever has something waiting', async () => {
    const c = await setup();
    await report(c.otra, { deviceId: randomUUID(), items: [item(lagunillas[0]!, 25, 'vote', 'lagunillas')] });
    await report(c.ana, { deviceId: randomUUID(), items: [item(cabimas[0]!, 2), item(cabimas[1]!, 1)] });

    const all = await overview(c.jefa);
    expect(all.statusCode).toBe(200);
    expect(all.headers['cache-control']).toBe('no-store');
    const body = all.json();
    expect(body.generatedAt).toBe(now.toISOString());
    expect(body.departments.length).toBeGreaterThan(20);
    expect(body.departments.map((d: { slug: string }) => d.slug)).not.toContain('resultados');
    expect(body.departments.slice(0, 2)).toEqual([
      { slug: 'lagunillas', title: 'Lagunillas', validators: 2, withWaiting: 1, waiting: 1, stuck: 1 },
      { slug: 'cabimas', title: 'Cabimas', validators: 3, withWaiting: 1, waiting: 2, stuck: 0 },
    ]);
    expect(body.validators).toEqual([
      expect.objectContaining({ email: PEOPLE.otra, slug: 'lagunillas', title: 'Lagunillas', waiting: 1, stuck: true }),
      expect.objectContaining({ email: PEOPLE.ana, slug: 'cabimas', waiting: 2, stuck: false }),
    ]);

    // A validator of Cabimas sees Cabimas only: nothing of Lagunillas.
    const mine = (await overview(c.coordinadora)).json();
    expect(mine.departments.map((d: { slug: string }) => d.slug)).toEqual(['cabimas']);
    expect(mine.validators.map((v: { email: string }) => v.email)).toEqual([PEOPLE.ana]);
    // Beto, on both lists, sees both, the stuck one first.
    const both = (await overview(c.beto)).json();
    expect(both.departments.map((d: { slug: string }) => d.slug)).toEqual(['lagunillas', 'cabimas']);
  });
});

describe('bounded reports', () => {
  it('600 reports from one validator under ever new device ids leave a few phones, a sane total and a view that answers', async () => {
    const c = await setup();
    const phones: { deviceId: string; items: FieldItem[] }[] = [];
    const answers = new Map<number, number>();
    // Ten minutes of reports, one a second: more than a minute's reports allow, and 120 times the phones kept.
    for (let i = 0; i < 600; i++) {
      // One report a second: more than the person's reports a minute, so a third of them are refused.
      now = new Date(now.getTime() + 1_000);
      const body = { deviceId: randomUUID(), items: cabimas.slice(0, 5).map((id) => item(id, 1)) };
      const res = await report(c.ana, body);
      answers.set(res.statusCode, (answers.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode === 200) phones.push(body);
      else expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect([...answers.keys()].sort()).toEqual([200, 429]);
    expect(answers.get(200)).toBeLessThanOrEqual(FIELD_REPORTS_PER_MINUTE * 11);

    const devices = await t.db.kysely
      .selectFrom('field_devices')
      .selectAll()
      .where('user_email', '=', PEOPLE.ana)
      .execute();
    expect(devices).toHaveLength(FIELD_DEVICES_PER_PERSON);
    // The phones kept are the last ones heard from.
    expect(devices.map((d) => d.device_id).sort()).toEqual(
      phones
        .slice(-FIELD_DEVICES_PER_PERSON)
        .map((p) => p.deviceId)
        .sort(),
    );
    const items = await t.db.kysely.selectFrom('field_items').select('item_key').execute();
    expect(items).toHaveLength(FIELD_DEVICES_PER_PERSON * 5);

    const line = await lineOf(c.coordinadora, PEOPLE.ana);
    expect(line).toMatchObject({ waiting: FIELD_DEVICES_PER_PERSON * 5, devices: FIELD_DEVICES_PER_PERSON });
    expect((await overview(c.coordinadora)).json().departments[0]).toMatchObject({
      waiting: FIELD_DEVICES_PER_PERSON * 5,
    });
  }, 300_000);

  it('refuses, past the reports a minute of a person, with 429 and when to try again; the next minute is open again', async () => {
    const c = await setup();
    const phone = randomUUID();
    for (let i = 0; i < FIELD_REPORTS_PER_MINUTE; i++) {
      expect((await report(c.beto, { deviceId: phone })).statusCode).toBe(200);
    }
    now = new Date(now.getTime() + 20_000);
    const refused = await report(c.beto, { deviceId: randomUUID(), items: [item(cabimas[0]!, 1)] });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('40');
    expect(refused.json().message).toMatch(/Demasiados informes/);
    // Another person is not held back by it.
    expect((await report(c.ana, { deviceId: randomUUID() })).statusCode).toBe(200);
    now = new Date(now.getTime() + 40_000);
    expect((await report(c.beto, { deviceId: phone, items: [item(cabimas[0]!, 1)] })).statusCode).toBe(200);
    expect(await lineOf(c.coordinadora, PEOPLE.beto)).toMatchObject({ waiting: 1 });
  });
});

describe('a phone’s row is its own', () => {
  it('cannot be written by another person nor by another open session of the same person', async () => {
    const c = await setup();
    const phone = randomUUID();
    expect((await report(c.ana, { deviceId: phone, items: [item(cabimas[0]!, 20)] })).statusCode).toBe(200);

    // Someone else reporting under Ana's device id writes a row of their own, never Ana's.
    expect((await report(c.beto, { deviceId: phone, items: [] })).statusCode).toBe(200);
    expect(await lineOf(c.coordinadora, PEOPLE.ana)).toMatchObject({ waiting: 1, stuck: true, devices: 1 });
    expect(await lineOf(c.coordinadora, PEOPLE.beto)).toMatchObject({ waiting: 0, devices: 1 });

    // Ana signed in elsewhere (another browser, the same id copied): refused while the phone's session lives.
    const elsewhere = await loginAs(t, PEOPLE.ana);
    const taken = await report(elsewhere, { deviceId: phone, items: [] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Otra sesión abierta ya informa con este identificador de teléfono.');
    expect(await lineOf(c.coordinadora, PEOPLE.ana)).toMatchObject({ waiting: 1, stuck: true });

    // The phone's session ends (its person signed out); signing in again on it, the phone goes on reporting.
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', headers: { cookie: c.ana } })).statusCode).toBe(
      200,
    );
    expect((await report(elsewhere, { deviceId: phone, items: [] })).statusCode).toBe(200);
    expect(await lineOf(c.coordinadora, PEOPLE.ana)).toMatchObject({ waiting: 0, devices: 1 });
  });
});

describe('Campo after a server restored from a copy (decision 135)', () => {
  it('shows who has sent again what the server lacked, who still holds items from before, and whose phones have not checked', async () => {
    const c = await setup();
    const phoneAna = randomUUID();
    const phoneBeto = randomUUID();
    // Before any loss: nothing is said of a restore.
    expect(
      (await report(c.ana, { deviceId: phoneAna, recovery: { epoch: 1, resent: 0, fromBefore: 0 } })).statusCode,
    ).toBe(200);
    expect(await lineOf(c.coordinadora, PEOPLE.ana)).not.toHaveProperty('recovery');

    // The database is restored from Litestream's copy: epoch 2.
    await recordRestoredEpoch(t.db, {
      cause: 'replica',
      restoredUntil: ago(5),
      now,
      actorEmail: 'operador@example.org',
    });
    // Ana's phone checked and is sending 3 items again (1 gone already); Beto's has not checked yet.
    expect(
      (
        await report(c.ana, {
          deviceId: phoneAna,
          items: [item(cabimas[0] as number, 10), item(cabimas[1] as number, 10, 'gobernador')],
          recovery: { epoch: 2, resent: 1, fromBefore: 2 },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await report(c.beto, { deviceId: phoneBeto, recovery: { epoch: 1, resent: 0, fromBefore: 0 } })).statusCode,
    ).toBe(200);
    expect(await lineOf(c.coordinadora, PEOPLE.ana)).toMatchObject({
      waiting: 2,
      recovery: { resent: 1, fromBefore: 2, checked: true },
    });
    expect(await lineOf(c.coordinadora, PEOPLE.beto)).toMatchObject({
      recovery: { resent: 0, fromBefore: 0, checked: false },
    });
    // Everything went: Ana's phone holds nothing from before.
    await report(c.ana, { deviceId: phoneAna, recovery: { epoch: 2, resent: 3, fromBefore: 0 } });
    expect(await lineOf(c.coordinadora, PEOPLE.ana)).toMatchObject({
      recovery: { resent: 3, fromBefore: 0, checked: true },
    });
  });
});
