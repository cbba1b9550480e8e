import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '#server/features/evidence/audit-verify';
import { createPhotoStorage } from '#server/platform/storage/create-photo-storage';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { DEMO_RECORDS_PER_DEPARTMENT } from './records.demo';

let t: TestApp;
let dataDir: string;
afterEach(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('demo records', () => {
  it('loads ~150 believable records per municipality, some voted and photographed, counters in step', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-demo-'));
    t = await createTestApp({ demo: true, dataDir });
    const db = t.db.kysely;

    const perDepartment = await db
      .selectFrom('records')
      .select((eb) => ['department_id', eb.fn.countAll<number>().as('n')])
      .groupBy('department_id')
      .execute();
    expect(perDepartment).toHaveLength(37);
    expect(perDepartment.every((r) => Number(r.n) === DEMO_RECORDS_PER_DEPARTMENT)).toBe(true);

    const sample = await db.selectFrom('records').selectAll().limit(50).execute();
    for (const r of sample) {
      expect(r.telefono).toMatch(/^0(414|424|412|416|426|261)-\d{7}$/);
      expect(r.ubch).toMatch(/^UBCH \d{9}$/);
      expect(r.nombre.split(' ').length).toBeGreaterThanOrEqual(3);
    }

    const voted = await db
      .selectFrom('records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('voted_at', 'is not', null)
      .executeTakeFirstOrThrow();
    const completed = await db
      .selectFrom('records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('completed', '=', 1)
      .executeTakeFirstOrThrow();
    expect(Number(voted.n)).toBeGreaterThan(37 * 20);
    expect(Number(completed.n)).toBeGreaterThan(37 * 5);
    expect(Number(completed.n)).toBeLessThan(Number(voted.n));
    // Each validated record names who validated it (the demo's validator), and only those.
    const validatedBy = await db
      .selectFrom('records')
      .select(['completed', 'validated_by', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['completed', 'validated_by'])
      .orderBy('completed')
      .execute();
    expect(validatedBy.map((r) => [r.completed, r.validated_by, Number(r.n)])).toEqual([
      [0, null, expect.any(Number)],
      [1, expect.stringMatching(/@/), Number(completed.n)],
    ]);

    // The counters agree with the ballots.
    const ballots = await db
      .selectFrom('vote_totals')
      .select((eb) => eb.fn.sum<number>('ballots').as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(ballots.n)).toBe(Number(voted.n));
    const fromRows = await db
      .selectFrom('record_votes')
      .select(['candidate_id', sql<number>`count(*)`.as('n')])
      .groupBy('candidate_id')
      .orderBy('candidate_id')
      .execute();
    const fromCounters = await db
      .selectFrom('candidate_totals')
      .select(['candidate_id', sql<number>`sum(votes)`.as('n')])
      .groupBy('candidate_id')
      .orderBy('candidate_id')
      .execute();
    expect(fromCounters.map((r) => [r.candidate_id, Number(r.n)])).toEqual(
      fromRows.map((r) => [r.candidate_id, Number(r.n)]),
    );

    // The progress counts agree with the records.
    const counted = await db
      .selectFrom('records')
      .select((eb) => [
        'department_id',
        eb.fn.countAll<number>().as('total'),
        eb.fn.count<number>('voted_at').as('voted'),
        eb.fn.sum<number>('completed').as('validated'),
      ])
      .where('status', '=', 'pendiente')
      .groupBy('department_id')
      .orderBy('department_id')
      .execute();
    const kept = await db.selectFrom('record_counts').selectAll().orderBy('department_id').execute();
    expect(kept.map((r) => [r.department_id, Number(r.total), Number(r.voted), Number(r.validated)])).toEqual(
      counted.map((r) => [r.department_id, Number(r.total), Number(r.voted), Number(r.validated)]),
    );

    // Every demo photo points at real files in storage.
    const photos = await db.selectFrom('photos').select(['original_key', 'display_key', 'thumb_key']).execute();
    expect(photos.length).toBeGreaterThan(0);
    const storage = createPhotoStorage(t.config);
    const keys = new Set(photos.flatMap((p) => [p.original_key, p.display_key, p.thumb_key]));
    for (const key of keys) expect(await storage.exists(key)).toBe(true);

    // Each vote and photo left the audit row a validator's would: the chain holds and agrees with them.
    const report = await verifyAuditChain(db, { storage });
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
