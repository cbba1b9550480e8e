import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';

let t: TestApp;
afterEach(async () => t?.close());

// 15:00 in Caracas on 2026-11-22.
const NOW = '2026-11-22T19:00:00Z';
const TODAY = '2026-11-22';

const PEOPLE = {
  admin: 'jefa@example.org',
  agenda: 'agenda@example.org',
  notas: 'notas@example.org',
  validator: 'validador@example.org',
  outsider: 'nadie@example.org',
} as const;
type Person = keyof typeof PEOPLE;

async function setup(): Promise<Record<Person, string>> {
  t = await createTestApp({ now: () => new Date(NOW) });
  await createUser(t.db, { email: PEOPLE.admin, role: 'admin' });
  await createUser(t.db, { email: PEOPLE.agenda, role: 'staff', departments: ['agenda'] });
  await createUser(t.db, { email: PEOPLE.notas, role: 'staff', departments: ['notas'] });
  await createUser(t.db, { email: PEOPLE.validator, role: 'staff', departments: ['cabimas'] });
  await createUser(t.db, { email: PEOPLE.outsider, role: 'staff' });
  const cookies = {} as Record<Person, string>;
  for (const person of Object.keys(PEOPLE) as Person[]) cookies[person] = await sessionCookie(t, PEOPLE[person]);
  return cookies;
}

const event = (overrides: Record<string, unknown> = {}) => ({
  fecha: TODAY,
  hora24h: '18:30',
  descripcion: 'Caravana de cierre',
  lugar: 'Av. 5 de Julio',
  ...overrides,
});

async function create(cookie: string, body: Record<string, unknown>) {
  return t.request({ method: 'POST', url: '/api/admin/agenda', headers: { cookie }, payload: body });
}

const today = async () => (await t.app.inject({ url: '/api/agenda/today' })).json().events as { descripcion: string }[];

describe('agenda editor: who may use it', () => {
  it('lets admins and the Agenda list in; a visitor gets 401 and anyone else 404 on every route', async () => {
    const cookies = await setup();
    const created = await create(cookies.admin, event());
    expect(created.statusCode).toBe(201);
    const id = created.json().event.id as number;
    const routes = [
      { method: 'GET', url: `/api/admin/agenda?from=${TODAY}&to=${TODAY}` },
      { method: 'POST', url: '/api/admin/agenda', payload: event() },
      { method: 'PUT', url: `/api/admin/agenda/${id}`, payload: event({ descripcion: 'Cambio' }) },
      { method: 'POST', url: '/api/admin/agenda/copy', payload: { from: TODAY, to: '2026-11-30' } },
      { method: 'DELETE', url: `/api/admin/agenda/${id}` },
    ] as const;
    for (const route of routes) {
      const as = async (cookie?: string) =>
        (await t.request({ ...route, headers: cookie ? { cookie } : {} })).statusCode;
      expect(await as(), `${route.method} ${route.url} as a visitor`).toBe(401);
      for (const person of ['notas', 'validator', 'outsider'] as const) {
        expect(await as(cookies[person]), `${route.method} ${route.url} as ${person}`).toBe(404);
      }
    }
    // Nothing above changed anything.
    expect((await today()).map((e) => e.descripcion)).toEqual(['Caravana de cierre']);
    for (const [i, route] of routes.entries()) {
      const res = await t.request({ ...route, headers: { cookie: i % 2 ? cookies.admin : cookies.agenda } });
      expect(res.statusCode, `${route.method} ${route.url}`).toBeLessThan(300);
    }
  });

  it('refuses a change from another site (no same-origin Origin header)', async () => {
    const cookies = await setup();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/agenda',
      headers: { cookie: cookies.admin, origin: 'https://evil.example' },
      payload: event(),
    });
    expect(res.statusCode).toBe(403);
    expect(await today()).toEqual([]);
  });
});

describe('agenda editor: events', () => {
  it('creates, edits and deletes, and the public agenda shows each change at once', async () => {
    const cookies = await setup();
    expect(await today()).toEqual([]); // now cached as empty
    const res = await create(cookies.agenda, event({ hora24h: '7:05', lugar: '  ' }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: 'Evento creado.',
      event: { fecha: TODAY, hora24h: '07:05', descripcion: 'Caravana de cierre', lugar: null },
    });
    const id = res.json().event.id;
    expect(await today()).toMatchObject([{ id, hora24h: '07:05', lugar: null }]);

    const edited = await t.request({
      method: 'PUT',
      url: `/api/admin/agenda/${id}`,
      headers: { cookie: cookies.agenda },
      payload: event({ hora24h: '20:15', descripcion: 'Cierre en la plaza', lugar: 'Plaza Bolívar' }),
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().message).toBe('Evento actualizado.');
    expect(await today()).toMatchObject([{ id, hora24h: '20:15', descripcion: 'Cierre en la plaza' }]);

    // Moved to another day: it leaves today's agenda.
    await t.request({
      method: 'PUT',
      url: `/api/admin/agenda/${id}`,
      headers: { cookie: cookies.agenda },
      payload: event({ fecha: '2026-11-23' }),
    });
    expect(await today()).toEqual([]);

    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/admin/agenda/${id}`,
      headers: { cookie: cookies.agenda },
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toBe('Evento eliminado.');
    const again = await t.request({
      method: 'DELETE',
      url: `/api/admin/agenda/${id}`,
      headers: { cookie: cookies.agenda },
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('El evento no existe.');
    const missing = await t.request({
      method: 'PUT',
      url: '/api/admin/agenda/999999',
      headers: { cookie: cookies.agenda },
      payload: event(),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('El evento no existe.');

    const actions = (await listAudit(t.db.kysely)).filter((a) => a.action.startsWith('agenda.'));
    expect(actions.map((a) => a.action)).toEqual(['agenda.delete', 'agenda.update', 'agenda.update', 'agenda.create']);
    for (const a of actions) {
      expect(a).toMatchObject({ actor_email: PEOPLE.agenda, department_slug: 'agenda', target: `agenda:${id}` });
    }
    expect(JSON.parse(actions[2]!.details!)).toMatchObject({
      before: { hora24h: '07:05', descripcion: 'Caravana de cierre' },
      after: { hora24h: '20:15', descripcion: 'Cierre en la plaza', lugar: 'Plaza Bolívar' },
    });
  });

  it.each([
    [
      'hora24h: 24:00',
      { hora24h: '24:00' },
      'La hora debe estar en formato de 24 horas HH:MM, por ejemplo 07:30 o 18:45.',
    ],
    ['hora24h: 7:5', { hora24h: '7:5' }, 'La hora debe estar en formato de 24 horas HH:MM, por ejemplo 07:30 o 18:45.'],
    [
      'hora24h: 6:30 PM',
      { hora24h: '6:30 PM' },
      'La hora debe estar en formato de 24 horas HH:MM, por ejemplo 07:30 o 18:45.',
    ],
    ['hora24h: empty', { hora24h: '' }, 'La hora debe estar en formato de 24 horas HH:MM, por ejemplo 07:30 o 18:45.'],
    ['fecha: 2026-02-30', { fecha: '2026-02-30' }, 'La fecha debe ser un día válido con el formato AAAA-MM-DD.'],
    ['fecha: 22/11/2026', { fecha: '22/11/2026' }, 'La fecha debe ser un día válido con el formato AAAA-MM-DD.'],
    ['descripcion: blank', { descripcion: '   ' }, 'Escribe la descripción del evento.'],
    [
      'descripcion: 501 characters',
      { descripcion: 'x'.repeat(501) },
      'La descripción no puede tener más de 500 caracteres.',
    ],
    ['lugar: 301 characters', { lugar: 'x'.repeat(301) }, 'El lugar no puede tener más de 300 caracteres.'],
  ])('refuses %s with a Spanish message', async (_label, change, message) => {
    const cookies = await setup();
    const res = await create(cookies.admin, event(change));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await today()).toEqual([]);
  });

  it('lists a range by day and by time, and refuses a range longer than 92 days', async () => {
    const cookies = await setup();
    for (const [fecha, hora24h] of [
      ['2026-11-24', '09:00'],
      ['2026-11-23', '18:00'],
      ['2026-11-23', '07:00'],
      ['2026-12-30', '10:00'],
    ]) {
      expect((await create(cookies.admin, event({ fecha, hora24h }))).statusCode).toBe(201);
    }
    const list = await t.request({
      url: '/api/admin/agenda?from=2026-11-23&to=2026-11-30',
      headers: { cookie: cookies.admin },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().events.map((e: { fecha: string; hora24h: string }) => `${e.fecha} ${e.hora24h}`)).toEqual([
      '2026-11-23 07:00',
      '2026-11-23 18:00',
      '2026-11-24 09:00',
    ]);
    const long = await t.request({
      url: '/api/admin/agenda?from=2026-01-01&to=2026-12-31',
      headers: { cookie: cookies.admin },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Consulta como máximo 92 días a la vez.');
    const reversed = await t.request({
      url: '/api/admin/agenda?from=2026-12-01&to=2026-11-01',
      headers: { cookie: cookies.admin },
    });
    expect(reversed.json().message).toBe('La fecha inicial no puede ser posterior a la final.');
  });
});

describe('agenda editor: copying a day', () => {
  it('copies a day to another, never twice the same event, and audits one row per copy', async () => {
    const cookies = await setup();
    await create(cookies.admin, event({ fecha: '2026-11-20', hora24h: '08:00', descripcion: 'Desayuno' }));
    await create(cookies.admin, event({ fecha: '2026-11-20', hora24h: '18:30', descripcion: 'Caravana' }));
    await create(cookies.admin, event({ fecha: TODAY, hora24h: '18:30', descripcion: 'Caravana' }));
    expect((await today()).map((e) => e.descripcion)).toEqual(['Caravana']);

    const copy = () =>
      t.request({
        method: 'POST',
        url: '/api/admin/agenda/copy',
        headers: { cookie: cookies.agenda },
        payload: { from: '2026-11-20', to: TODAY },
      });
    const first = await copy();
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      message: 'Se copió 1 evento (1 ya estaba en ese día).',
      copied: 1,
      skipped: 1,
    });
    expect(first.json().events.map((e: { descripcion: string }) => e.descripcion)).toEqual(['Desayuno', 'Caravana']);
    expect((await today()).map((e) => e.descripcion)).toEqual(['Desayuno', 'Caravana']);

    const second = await copy();
    expect(second.json()).toMatchObject({ copied: 0, skipped: 2 });
    expect(await today()).toHaveLength(2);

    const copies = await listAudit(t.db.kysely, { action: 'agenda.copy' });
    expect(copies).toHaveLength(2);
    expect(copies[1]).toMatchObject({ actor_email: PEOPLE.agenda, department_slug: 'agenda' });
    expect(JSON.parse(copies[1]!.details!)).toEqual({ from: '2026-11-20', to: TODAY, copied: 1, skipped: 1 });
  });

  it('says so when the day has nothing to copy, or the target is the same day', async () => {
    const cookies = await setup();
    const empty = await t.request({
      method: 'POST',
      url: '/api/admin/agenda/copy',
      headers: { cookie: cookies.admin },
      payload: { from: '2026-11-01', to: TODAY },
    });
    expect(empty.statusCode).toBe(404);
    expect(empty.json().message).toBe('Ese día no tiene eventos para copiar.');
    const same = await t.request({
      method: 'POST',
      url: '/api/admin/agenda/copy',
      headers: { cookie: cookies.admin },
      payload: { from: TODAY, to: TODAY },
    });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('Elige un día distinto al de origen.');
  });
});
