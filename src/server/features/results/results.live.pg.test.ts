import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { seedSyntheticResults, unvotedRecordIds } from '#server/testing/results-synthetic';
import { openSse, votesIn } from '#server/testing/sse';
import { createTestApp, type TestApp } from '#server/testing/test-app';

// PostgreSQL only (the `server-postgres` project runs *.pg.test.ts; the SQLite one leaves them out).
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('LISTEN connection on PostgreSQL', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('reconnects after losing its connection and still delivers votes', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
    await createUser(t.db, { email: 'val@example.org', role: 'staff', departments: ['sucre'] });
    const admin = await sessionCookie(t, 'jefa@example.org');
    const validator = await sessionCookie(t, 'val@example.org');
    await seedSyntheticResults(t.db.kysely, { departments: ['sucre'], unvoted: 2 });
    const ids = await unvotedRecordIds(t.db.kysely, 'sucre', 2);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const stream = await openSse(`http://127.0.0.1:${port}/api/results/stream`, admin);
    const base = votesIn(await stream.next((e) => e.event === 'resultados'), 'LC');

    const killed = await sql<{ pid: number }>`
      select pg_terminate_backend(pid) as pid from pg_stat_activity
      where datname = current_database() and query ilike 'listen%'`.execute(t.db.kysely);
    expect(killed.rows.length).toBe(1);

    const vote = (id: number) =>
      t!.request({
        method: 'POST',
        url: `/api/validation/sucre/records/${id}/vote`,
        headers: { cookie: validator },
        payload: { candidates: ['LC'] },
      });
    expect((await vote(ids[0]!)).statusCode).toBe(201);
    await stream.next((e) => votesIn(e, 'LC') === base + 1, 2_000);
    // Listening again: the next vote arrives as fast as ever.
    await sleep(500);
    const sent = Date.now();
    expect((await vote(ids[1]!)).statusCode).toBe(201);
    const seen = await stream.next((e) => votesIn(e, 'LC') === base + 2, 1_000);
    expect(seen.at - sent).toBeLessThan(500);
    stream.close();
  });
});
