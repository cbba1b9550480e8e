import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { addRecords } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { createResultsRepository } from './results.repository';
import { checkTotals, readTimeline } from './results.service';

// The timeline's counters (quarter_totals, decision 083) move with every vote, correction, void and
// restore, and agree with a recount of the ballots; the rebuild makes the same ones. Runs on SQLite and
// PostgreSQL (the server-postgres project).

const ADMIN = 'jefa.cuartos@example.org';
const VALIDATOR = 'validador.cuartos@example.org';
const SLUG = 'cabimas';

let t: TestApp;
afterEach(async () => t?.close());

let now = new Date('2026-12-06T14:00:00Z');

async function setup() {
  now = new Date('2026-12-06T14:00:00Z');
  t = await createTestApp({ now: () => now });
  await createUser(t.db, { email: ADMIN, role: 'admin' });
  await createUser(t.db, { email: VALIDATOR, role: 'staff', departments: [SLUG] });
  return { admin: await sessionCookie(t, ADMIN), validator: await sessionCookie(t, VALIDATOR) };
}

async function send(cookie: string, method: 'POST' | 'PUT', url: string, payload: object, at: string, status: number) {
  now = new Date(at);
  const res = await t.request({ method, url, headers: { cookie }, payload });
  expect(res.statusCode, res.body).toBe(status);
}

/** The counters summed over departments, as 'FA 13:15' -> votes, leaving out rows at zero. */
async function quarterCounters(): Promise<Record<string, number>> {
  const rows = await createResultsRepository(t.db.kysely).quarterCounters();
  const codeOf = new Map(
    (await createRecordsRepository(t.db.kysely).listCandidates()).map((c) => [c.id, c.code] as const),
  );
  const sums: Record<string, number> = {};
  for (const r of rows) {
    const key = `${codeOf.get(r.candidate_id)} ${r.hour.slice(11)}:${String(r.quarter * 15).padStart(2, '0')}`;
    sums[key] = (sums[key] ?? 0) + r.votes;
  }
  return Object.fromEntries(Object.entries(sums).filter(([, votes]) => votes !== 0));
}

describe('the timeline’s counters per quarter of an hour', () => {
  it('follow votes, corrections, voids and restores, agree with a recount, and a rebuild makes the same', async () => {
    const { admin, validator } = await setup();
    const ids = await addRecords(t, SLUG, 5);
    const vote = (i: number, candidates: string[], at: string) =>
      send(validator, 'POST', `/api/validation/${SLUG}/records/${ids[i]}/vote`, { candidates }, at, 201);
    await vote(0, ['FA'], '2026-12-06T13:02:00.000Z');
    await vote(1, ['FA', 'LC'], '2026-12-06T13:20:00.000Z');
    await vote(2, ['NR'], '2026-12-06T13:29:59.999Z');
    await vote(3, ['LC'], '2026-12-06T14:06:00.000Z');
    await vote(4, ['FA'], '2026-12-06T14:10:00.000Z');
    expect(await quarterCounters()).toEqual({
      'FA 13:00': 1,
      'FA 13:15': 1,
      'LC 13:15': 1,
      'NR 13:15': 1,
      'LC 14:00': 1,
      'FA 14:00': 1,
    });

    const admin_ = (method: 'POST' | 'PUT', path: string, payload: object) =>
      send(admin, method, `/api/admin/records/${path}`, payload, '2026-12-06T14:20:00.000Z', 200);
    // A correction moves the vote's own quarter (13:00), not the one it is made in (14:15).
    await admin_('PUT', `${ids[0]}/vote`, { candidates: ['NR'], reason: 'Acta revisada', voteRevision: 1 });
    // A void takes the ballot out of its quarter; one whose vote still counts leaves it there.
    await admin_('POST', `${ids[1]}/void`, { reason: 'Duplicado', voteCounts: false });
    await admin_('POST', `${ids[2]}/void`, { reason: 'Se mudó', voteCounts: true });
    // A restore brings it back to the same quarter.
    await admin_('POST', `${ids[3]}/void`, { reason: 'Error', voteCounts: false });
    await admin_('POST', `${ids[3]}/restore`, { reason: 'Era válido' });
    // A cleared vote leaves its quarter.
    await admin_('PUT', `${ids[4]}/vote`, { candidates: null, reason: 'No votó', voteRevision: 1 });

    const kept = await quarterCounters();
    expect(kept).toEqual({ 'NR 13:00': 1, 'NR 13:15': 1, 'LC 14:00': 1 });
    expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
    const timeline = await readTimeline(t.db.kysely, now);
    expect(timeline.buckets.map((b) => [b.at.slice(11, 16), b.votes])).toEqual([
      ['13:00', { FA: 0, LC: 0, NR: 1 }],
      ['13:15', { FA: 0, LC: 0, NR: 1 }],
      ['13:30', { FA: 0, LC: 0, NR: 0 }],
      ['13:45', { FA: 0, LC: 0, NR: 0 }],
      ['14:00', { FA: 0, LC: 1, NR: 0 }],
      ['14:15', { FA: 0, LC: 0, NR: 0 }],
    ]);

    await createRecordsRepository(t.db.kysely).rebuildTotals();
    expect(await quarterCounters()).toEqual(kept);
    expect(await readTimeline(t.db.kysely, now)).toEqual(timeline);
  });

  it('results:check names a quarter counter that disagrees with the recount', async () => {
    const { validator } = await setup();
    const [id] = await addRecords(t, SLUG, 1);
    await send(
      validator,
      'POST',
      `/api/validation/${SLUG}/records/${id}/vote`,
      { candidates: ['LC'] },
      '2026-12-06T13:47:00.000Z',
      201,
    );
    await sql`update quarter_totals set votes = votes + 2`.execute(t.db.kysely);
    expect((await checkTotals(t.db.kysely)).differences).toEqual([
      { department: SLUG, counter: 'LC 2026-12-06T13:45', stored: 3, recounted: 1 },
    ]);
  });
});
