import { afterEach, describe, expect, it } from 'vitest';
import { signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { createCopiesRepository } from './copies.repository';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const METRICS_TOKEN = 'metricas-de-prueba';

describe('the copy without Litestream or a standby', () => {
  it('is none, then the last whole backup’s age, in Jornada and in /metrics', async () => {
    let now = new Date('2026-11-29T20:00:00.000Z');
    t = await createTestApp({ now: () => now, metricsToken: METRICS_TOKEN });
    const { admin, validatorA } = await signInPeople(t);
    const copy = () => t?.request({ url: '/api/admin/election/copy', headers: { cookie: admin } });
    const scrape = async () =>
      (await t?.request({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } }))?.body ?? '';

    expect((await copy())?.json()).toEqual({
      kind: 'none',
      lagSeconds: null,
      answering: false,
      checkedAt: now.toISOString(),
    });
    expect(await scrape()).toMatch(/^comando_replica_lag_seconds\{kind="none"\} \+Inf$/m);
    // Admins only: to anyone else the back office does not exist.
    expect((await t.request({ url: '/api/admin/election/copy', headers: { cookie: validatorA } })).statusCode).toBe(
      404,
    );

    const repo = createCopiesRepository(t.db.kysely);
    await repo.addBackup({
      takenAt: '2026-11-29T19:00:00.000Z',
      finishedAt: '2026-11-29T19:00:30.000Z',
      rows: 10,
      photos: 2,
      missingPhotos: 0,
    });
    // A backup that missed photos is not whole: the one before it counts.
    await repo.addBackup({
      takenAt: '2026-11-29T19:50:00.000Z',
      finishedAt: '2026-11-29T19:50:30.000Z',
      rows: 12,
      photos: 2,
      missingPhotos: 1,
    });
    now = new Date('2026-11-29T20:05:00.000Z');
    expect((await copy())?.json()).toMatchObject({ kind: 'backup', lagSeconds: 65 * 60 });
    expect(await scrape()).toMatch(/^comando_replica_lag_seconds\{kind="backup"\} 3900$/m);
  });
});
