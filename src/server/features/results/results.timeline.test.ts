import { afterEach, describe, expect, it } from 'vitest';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { addRecords } from '#server/testing/records';
import { seedSyntheticResults } from '#server/testing/results-synthetic';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import type { Results, Timeline } from '#shared/features/results/results';
import { readTimeline } from './results.service';

const ADMIN = 'jefa.noche@example.org';
const VALIDATOR = 'validadora.noche@example.org';
const SLUG = 'cabimas';

let t: TestApp;
afterEach(async () => t?.close());

// 10:00 in Caracas (UTC−4): the day began at 04:00 UTC.
let now = new Date('2026-12-06T14:00:00Z');

async function setup() {
  now = new Date('2026-12-06T14:00:00Z');
  t = await createTestApp({ now: () => now });
  await createUser(t.db, { email: ADMIN, role: 'admin' });
  await createUser(t.db, { email: VALIDATOR, role: 'staff', departments: [SLUG] });
  return { admin: await sessionCookie(t, ADMIN), validator: await sessionCookie(t, VALIDATOR) };
}

async function voteAt(cookie: string, id: number, candidates: string[], at: string) {
  now = new Date(at);
  const res = await t.request({
    method: 'POST',
    url: `/api/validation/${SLUG}/records/${id}/vote`,
    headers: { cookie },
    payload: { candidates },
  });
  expect(res.statusCode).toBe(201);
}

const get = async <T>(url: string, cookie: string): Promise<T> => {
  const res = await t.request({ url, headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json() as T;
};

describe('GET /api/results/timeline', () => {
  it('counts the day’s votes per quarter of an hour in Caracas time, with running totals that end at the cards’ totals', async () => {
    const { admin, validator } = await setup();
    // Yesterday's votes, and one at 23:50 in Caracas (03:50 UTC today): all before the day.
    await seedSyntheticResults(t.db.kysely, {
      departments: ['sucre'],
      ballots: [{ codes: ['FA'], count: 4 }],
      now: new Date('2026-12-05T15:00:00Z'),
    });
    const ids = await addRecords(t, SLUG, 5);
    await voteAt(validator, ids[0] as number, ['LC'], '2026-12-06T03:50:00Z');
    await voteAt(validator, ids[1] as number, ['FA'], '2026-12-06T13:02:00Z');
    await voteAt(validator, ids[2] as number, ['FA', 'LC'], '2026-12-06T13:20:00Z');
    await voteAt(validator, ids[3] as number, ['NR'], '2026-12-06T13:29:59Z');
    now = new Date('2026-12-06T14:05:00Z');

    const timeline = await get<Timeline>('/api/results/timeline', admin);
    expect(timeline.day).toBe('2026-12-06');
    expect(timeline.dayStartsAt).toBe('2026-12-06T04:00:00.000Z');
    expect(timeline.denominator).toBe(5373);
    expect(timeline.before).toEqual({ FA: 4, LC: 1, NR: 0 });
    // From the first quarter with a vote up to the current one; quiet quarters are there with zeros.
    expect(timeline.buckets).toEqual([
      { at: '2026-12-06T13:00:00.000Z', votes: { FA: 1, LC: 0, NR: 0 }, running: { FA: 5, LC: 1, NR: 0 } },
      { at: '2026-12-06T13:15:00.000Z', votes: { FA: 1, LC: 1, NR: 1 }, running: { FA: 6, LC: 2, NR: 1 } },
      { at: '2026-12-06T13:30:00.000Z', votes: { FA: 0, LC: 0, NR: 0 }, running: { FA: 6, LC: 2, NR: 1 } },
      { at: '2026-12-06T13:45:00.000Z', votes: { FA: 0, LC: 0, NR: 0 }, running: { FA: 6, LC: 2, NR: 1 } },
      { at: '2026-12-06T14:00:00.000Z', votes: { FA: 0, LC: 0, NR: 0 }, running: { FA: 6, LC: 2, NR: 1 } },
    ]);
    const results = await get<Results>('/api/results', admin);
    expect(Object.fromEntries(results.candidates.map((c) => [c.code, c.votes]))).toEqual(
      timeline.buckets.at(-1)?.running,
    );

    // A vote now shows in the current quarter on the next read.
    await voteAt(validator, ids[4] as number, ['LC'], '2026-12-06T14:06:00Z');
    const after = await get<Timeline>('/api/results/timeline', admin);
    expect(after.buckets.at(-1)).toEqual({
      at: '2026-12-06T14:00:00.000Z',
      votes: { FA: 0, LC: 1, NR: 0 },
      running: { FA: 6, LC: 3, NR: 1 },
    });

    // An admin corrects the 13:02 vote (FA to NR): its quarter, read before, is read again.
    now = new Date('2026-12-06T14:07:00Z');
    const corrected = await t.request({
      method: 'PUT',
      url: `/api/admin/records/${ids[1]}/vote`,
      headers: { cookie: admin },
      payload: { candidates: ['NR'], reason: 'Acta revisada', voteRevision: 1 },
    });
    expect(corrected.statusCode).toBe(200);
    const fixed = await get<Timeline>('/api/results/timeline', admin);
    expect(fixed.buckets[0]).toEqual({
      at: '2026-12-06T13:00:00.000Z',
      votes: { FA: 0, LC: 0, NR: 1 },
      running: { FA: 4, LC: 1, NR: 1 },
    });
    expect(fixed.buckets.at(-1)?.running).toEqual({ FA: 5, LC: 3, NR: 2 });
    expect(fixed).toEqual({ ...(await readTimeline(t.db.kysely, now)), computedAt: fixed.computedAt });
  });

  it('has no quarters before the day’s first vote, and only the Resultados list may read it', async () => {
    const { admin, validator } = await setup();
    const empty = await get<Timeline>('/api/results/timeline', admin);
    expect(empty.buckets).toEqual([]);
    expect(empty.before).toEqual({ FA: 0, LC: 0, NR: 0 });
    expect((await t.request({ url: '/api/results/timeline', headers: { cookie: validator } })).statusCode).toBe(404);
    expect((await t.request({ url: '/api/results/timeline' })).statusCode).toBe(401);
  });
});
