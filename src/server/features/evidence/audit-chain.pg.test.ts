import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { runChange } from '#server/platform/change/change';
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
  it("does not hold the chain's head while a change runs: another change commits meanwhile, and both chain in commit order", async () => {
    const first = await createTestApp();
    closing.push(() => first.close());
    const db = first.db.kysely;
    const row = (target: string) => ({ actorEmail: 'jefa@example.org', action: 'prueba.cabeza', target });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let wrote = () => {};
    const written = new Promise<void>((resolve) => {
      wrote = resolve;
    });
    // A slow change: its audit row written, then it waits before committing.
    const slow = runChange(db, async (change) => {
      await change.audit(row('lenta'));
      wrote();
      await held;
    });
    await written;
    // Another change meanwhile, on another connection: it must not wait for the slow one's head lock
    // (a wait would end with PostgreSQL's lock timeout, an error).
    await runChange(db, async (change) => {
      await sql`set local lock_timeout = '5s'`.execute(change.trx);
      await change.audit(row('rápida'));
    });
    release();
    await slow;

    const rows = await db
      .selectFrom('audit_log')
      .select(['target', 'seq'])
      .where('action', '=', 'prueba.cabeza')
      .orderBy('seq')
      .execute();
    expect(rows.map((r) => r.target)).toEqual(['rápida', 'lenta']);
    const report = await verifyAuditChain(db);
    expect(report.problems).toEqual([]);
  });
});
