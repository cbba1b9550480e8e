import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createUser, loginAs } from '#server/testing/auth-helpers';
import { addRecords } from '#server/testing/records';
import { createTestApp, setElectionPhase, type TestApp } from '#server/testing/test-app';
import type { FieldPace, FieldPaceRow } from '#shared/features/field/field';

let t: TestApp;
afterEach(async () => t?.close());

let now = new Date('2026-12-06T14:00:00Z');
const ANA = 'ana.ritmo@example.org';
const BETO = 'beto.ritmo@example.org';
const COORDINADORA = 'coordinadora.ritmo@example.org';
const JEFA = 'jefa.ritmo@example.org';

async function voteAt(cookie: string, slug: string, id: number, at: string) {
  now = new Date(at);
  const res = await t.request({
    method: 'POST',
    url: `/api/validation/${slug}/records/${id}/vote`,
    headers: { cookie },
    payload: { candidates: ['FA'] },
  });
  expect(res.statusCode).toBe(201);
}

const pace = async (cookie: string): Promise<FieldPace> => {
  const res = await t.request({ url: '/api/field/pace', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json() as FieldPace;
};
const row = (answer: FieldPace, email: string, slug = 'cabimas') =>
  answer.validators.find((v) => v.email === email && v.slug === slug) as FieldPaceRow;

describe('GET /api/field/pace', () => {
  it('gives each validator their votes of the last hour, their last vote, idle after 30 minutes, and what waits on their phone', async () => {
    now = new Date('2026-12-06T13:00:00Z');
    t = await createTestApp({ now: () => now });
    await createUser(t.db, { email: ANA, role: 'staff', departments: ['cabimas'] });
    await createUser(t.db, { email: BETO, role: 'staff', departments: ['cabimas', 'lagunillas'] });
    await createUser(t.db, { email: COORDINADORA, role: 'staff', departments: ['cabimas'] });
    await createUser(t.db, { email: JEFA, role: 'admin' });
    const cabimas = await addRecords(t, 'cabimas', 6);
    const lagunillas = await addRecords(t, 'lagunillas', 2);
    const ana = await loginAs(t, ANA);
    const beto = await loginAs(t, BETO);
    const coordinadora = await loginAs(t, COORDINADORA);
    const jefa = await loginAs(t, JEFA);

    await voteAt(ana, 'cabimas', cabimas[0] as number, '2026-12-06T13:10:00Z');
    await voteAt(ana, 'cabimas', cabimas[1] as number, '2026-12-06T13:40:00Z');
    await voteAt(beto, 'lagunillas', lagunillas[0] as number, '2026-12-06T13:50:00Z');
    // Beto's phone holds a vote for Cabimas since 13:45.
    now = new Date('2026-12-06T14:00:00Z');
    const report = await t.request({
      method: 'POST',
      url: '/api/field/reports',
      headers: { cookie: beto },
      payload: {
        deviceId: randomUUID(),
        deviceNow: now.toISOString(),
        lastSuccessAt: null,
        lastError: null,
        items: [
          { key: randomUUID(), slug: 'cabimas', recordId: cabimas[2], kind: 'vote', savedAt: '2026-12-06T13:45:00Z' },
        ],
      },
    });
    expect(report.statusCode).toBe(200);

    now = new Date('2026-12-06T14:05:00Z');
    let answer = await pace(jefa);
    expect(answer.idleAfterMinutes).toBe(30);
    expect(row(answer, ANA)).toEqual({
      email: ANA,
      slug: 'cabimas',
      title: 'Cabimas',
      lastHour: 2,
      lastActivityAt: '2026-12-06T13:40:00.000Z',
      idle: false,
      waiting: 0,
      stuck: false,
    });
    expect(row(answer, BETO)).toMatchObject({ lastHour: 0, lastActivityAt: null, idle: true, waiting: 1, stuck: true });
    expect(row(answer, BETO, 'lagunillas')).toMatchObject({ lastHour: 1, idle: false, waiting: 0 });
    expect(row(answer, COORDINADORA)).toMatchObject({ lastHour: 0, lastActivityAt: null, idle: true });
    // The stuck first, then the idle.
    expect(answer.validators[0]).toMatchObject({ email: BETO, slug: 'cabimas' });

    // At 14:15 Ana's first vote is more than an hour old, and her last one more than 30 minutes.
    now = new Date('2026-12-06T14:15:00Z');
    answer = await pace(jefa);
    expect(row(answer, ANA)).toMatchObject({ lastHour: 1, idle: true });

    // A coordinator sees the lists they are on, nothing else.
    const theirs = await pace(coordinadora);
    expect(new Set(theirs.validators.map((v) => v.slug))).toEqual(new Set(['cabimas']));
    expect((await t.request({ url: '/api/field/pace' })).statusCode).toBe(401);
  });

  it('counts idle from when the day began: nobody is idle four minutes in, nor before the day or after its close', async () => {
    now = new Date('2026-12-06T10:00:00Z');
    t = await createTestApp({ now: () => now }, { electionPhase: 'preparacion' });
    await createUser(t.db, { email: ANA, role: 'staff', departments: ['cabimas'] });
    await createUser(t.db, { email: JEFA, role: 'admin' });
    const jefa = await loginAs(t, JEFA);
    expect(row(await pace(jefa), ANA)).toMatchObject({ lastActivityAt: null, idle: false });

    // The day begins at 10:30 (6:30 a. m. in Caracas).
    now = new Date('2026-12-06T10:30:00Z');
    await setElectionPhase(t.db, 'en_curso', now);
    now = new Date('2026-12-06T10:34:00Z');
    expect(row(await pace(jefa), ANA)).toMatchObject({ idle: false });
    now = new Date('2026-12-06T10:59:59Z');
    expect(row(await pace(jefa), ANA)).toMatchObject({ idle: false });
    // Thirty minutes into the day without a vote.
    now = new Date('2026-12-06T11:00:00Z');
    expect(row(await pace(jefa), ANA)).toMatchObject({ idle: true });

    await setElectionPhase(t.db, 'cerrada', now);
    expect(row(await pace(jefa), ANA)).toMatchObject({ idle: false });
  });
});
