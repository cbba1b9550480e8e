import { afterEach, describe, expect, it } from 'vitest';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { createCopiesRepository } from './copies.repository';
import { COMMIT_MARGIN_MS } from './copy-watch';

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

describe('POST /api/election/items: which items the server holds and which the copy holds', () => {
  const KEYS = ['0193f1a0-0000-7000-8000-000000000001', '0193f1a0-0000-7000-8000-000000000002'];
  const OTHER = '0193f1a0-0000-7000-8000-000000000003';

  it('answers the asker’s stored keys, and as secured those stored before the last whole backup, less the margin', async () => {
    let now = new Date('2026-11-29T20:00:00.000Z');
    t = await createTestApp({ now: () => now });
    const { validatorA, validatorB } = await signInPeople(t);
    const [first, second] = (await addRecords(t, SLUG_A, 2)) as [number, number];
    const vote = (id: number, key: string) =>
      t?.request({
        method: 'POST',
        url: `/api/validation/${SLUG_A}/records/${id}/vote`,
        headers: { cookie: validatorA, 'idempotency-key': key },
        payload: { candidates: ['FA'] },
      });
    expect((await vote(first, KEYS[0] as string))?.statusCode).toBe(201);
    now = new Date('2026-11-29T20:01:00.000Z');
    expect((await vote(second, KEYS[1] as string))?.statusCode).toBe(201);
    const ask = (cookie: string, keys: string[]) =>
      t?.request({ method: 'POST', url: '/api/election/items', headers: { cookie }, payload: { keys } });

    // No copy at all: held, never secured.
    const none = await ask(validatorA, [...KEYS, OTHER]);
    expect(none?.statusCode).toBe(200);
    expect(none?.json()).toMatchObject({ copy: 'none', epoch: { number: 1 }, secured: [] });
    expect([...(none?.json().held ?? [])].sort()).toEqual(KEYS);
    // Another person's keys are not theirs to ask about.
    expect((await ask(validatorB, KEYS))?.json()).toMatchObject({ held: [], secured: [] });

    // A whole backup taken 30 s after the second vote holds the first (stored more than the margin before).
    await createCopiesRepository(t.db.kysely).addBackup({
      takenAt: new Date(Date.parse('2026-11-29T20:01:00.000Z') + COMMIT_MARGIN_MS / 2).toISOString(),
      finishedAt: '2026-11-29T20:02:00.000Z',
      rows: 10,
      photos: 0,
      missingPhotos: 0,
    });
    expect((await ask(validatorA, KEYS))?.json()).toMatchObject({ copy: 'backup', secured: [KEYS[0]] });
    await createCopiesRepository(t.db.kysely).addBackup({
      takenAt: '2026-11-29T20:05:00.000Z',
      finishedAt: '2026-11-29T20:05:30.000Z',
      rows: 10,
      photos: 0,
      missingPhotos: 0,
    });
    expect([...((await ask(validatorA, KEYS))?.json().secured ?? [])].sort()).toEqual(KEYS);

    // Signed-in people only, and item keys only.
    expect((await t.request({ method: 'POST', url: '/api/election/items', payload: { keys: KEYS } })).statusCode).toBe(
      401,
    );
    expect((await ask(validatorA, ['no-es-una-clave']))?.statusCode).toBe(400);
  });
});
