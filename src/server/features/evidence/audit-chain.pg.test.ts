import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { openDatabase } from '#server/platform/db/database';
import { addRecords, SLUG_A, SLUG_B, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp, testAppOf, testConfig } from '#server/testing/test-app';
import { verifyAuditChain } from './audit-verify';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

describe('the audit chain with two app instances on one PostgreSQL', () => {
  it('stays one chain while both take votes at once, and verifies', async () => {
    const first = await createTestApp();
    closing.push(() => first.close());
    // A second instance: its own pool of connections to the same database, as a second server would have.
    const db = await openDatabase({ dataDir: '', databaseUrl: first.config.databaseUrl });
    const app = await buildApp(testConfig({ dataDir: first.config.dataDir, databaseUrl: first.config.databaseUrl }), {
      db,
      logger: false,
    });
    const second: TestApp = testAppOf(app, async () => {
      await app.close();
      await db.close();
    });
    closing.push(() => second.close());

    const cookies = await signInPeople(first);
    const a = await addRecords(first, SLUG_A, 40);
    const b = await addRecords(first, SLUG_B, 40);
    const vote = (t: TestApp, slug: string, id: number, cookie: string, candidates: string[]) =>
      t.request({
        method: 'POST',
        url: `/api/validation/${slug}/records/${id}/vote`,
        headers: { cookie },
        payload: { candidates },
      });
    const answers = await Promise.all([
      ...a.map((id, i) => vote(i % 2 ? first : second, SLUG_A, id, cookies.validatorA, ['FA'])),
      ...b.map((id, i) => vote(i % 2 ? second : first, SLUG_B, id, cookies.validatorB, ['LC', 'NR'])),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 201));

    const rows = await first.db.kysely
      .selectFrom('audit_log')
      .select(['seq', 'prev_hash', 'hash'])
      .orderBy('seq')
      .execute();
    // One chain: as many places as rows, each row's predecessor hash used once.
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    expect(new Set(rows.map((r) => r.prev_hash)).size).toBe(rows.length);
    const report = await verifyAuditChain(first.db.kysely);
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({ ok: true, rows: rows.length, records: 80 });
  });
});
