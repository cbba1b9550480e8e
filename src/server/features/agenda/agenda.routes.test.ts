import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { createAgendaRepository } from './agenda.repository';

let t: TestApp;
afterEach(async () => t?.close());

async function appAt(instant: string) {
  t = await createTestApp({ now: () => new Date(instant) });
  return t;
}

describe('GET /api/agenda/today', () => {
  it('decides "today" in America/Caracas: at 23:30 there it is already tomorrow in UTC', async () => {
    const { app, db } = await appAt('2026-11-23T03:30:00Z');
    const repo = createAgendaRepository(db.kysely);
    const now = new Date();
    await repo.insert({ fecha: '2026-11-22', hora24h: '20:00', descripcion: 'Cierre en Caracas', lugar: 'Plaza' }, now);
    await repo.insert({ fecha: '2026-11-23', hora24h: '08:00', descripcion: 'Mañana', lugar: 'Otro' }, now);

    const res = await app.inject({ url: '/api/agenda/today' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.date).toBe('2026-11-22');
    expect(body.events.map((e: { descripcion: string }) => e.descripcion)).toEqual(['Cierre en Caracas']);
  });

  it('orders events by time, keeps malformed times (last) and missing fields as null', async () => {
    const { app, db } = await appAt('2026-11-22T15:00:00Z');
    const repo = createAgendaRepository(db.kysely);
    const now = new Date();
    await repo.insert({ fecha: '2026-11-22', hora24h: '25:99', descripcion: 'Hora rota', lugar: null }, now);
    await repo.insert({ fecha: '2026-11-22', hora24h: '15:00', descripcion: 'Tarde', lugar: 'B' }, now);
    await repo.insert({ fecha: '2026-11-22', hora24h: '07:30', descripcion: null, lugar: 'A' }, now);

    const body = (await app.inject({ url: '/api/agenda/today' })).json();
    expect(body.events.map((e: { hora24h: string }) => e.hora24h)).toEqual(['07:30', '15:00', '25:99']);
    expect(body.events[0].descripcion).toBeNull();
    expect(body.events[2].lugar).toBeNull();
    expect(body.leaderName).toBeTruthy();
  });

  it('answers an empty list on a day without events', async () => {
    const { app } = await appAt('2026-11-22T15:00:00Z');
    const body = (await app.inject({ url: '/api/agenda/today' })).json();
    expect(body).toMatchObject({ date: '2026-11-22', events: [] });
  });
});
