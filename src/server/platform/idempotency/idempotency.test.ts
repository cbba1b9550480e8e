import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '#server/testing/test-app';
import { createIdempotencyKeys, requestFingerprint } from './idempotency';

let testDb: TestDb | undefined;
afterEach(async () => testDb?.destroy());

const request = (itemKey: string) => ({
  itemKey,
  actor: 'ana@example.org',
  fingerprint: requestFingerprint('vote', itemKey),
});

describe('Idempotency-Key answers', () => {
  it('are found outside a transaction while another transaction holds the writer', async () => {
    testDb = await createTestDb({ migrated: true });
    const db = testDb.db.kysely;
    const keys = createIdempotencyKeys(db, { days: 7, now: () => new Date('2026-11-27T10:00:00Z') });
    await db.transaction().execute((trx) => keys.remember(trx, request('a'), 201, { voto: 1 }));

    // A vote's transaction is open (on SQLite it holds the only writing connection) while another
    // vote checks its key: the check answers from what is committed, without waiting for that commit.
    const seen = await db.transaction().execute(async (trx) => {
      await keys.remember(trx, request('b'), 201, { voto: 2 });
      return {
        a: await keys.replay(request('a')),
        b: await keys.replay(request('b')),
        bInside: await keys.replay(request('b'), trx),
        exists: await keys.exists('a'),
      };
    });
    expect(seen).toEqual({
      a: { statusCode: 201, body: { voto: 1 }, replayed: true },
      b: undefined,
      bInside: { statusCode: 201, body: { voto: 2 }, replayed: true },
      exists: true,
    });
    expect(await keys.replay(request('b'))).toEqual({ statusCode: 201, body: { voto: 2 }, replayed: true });
  }, 10_000);
});
