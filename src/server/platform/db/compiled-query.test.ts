import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '#server/testing/test-app';
import { preparedQuery } from './compiled-query';

let t: TestDb;
afterEach(async () => t?.destroy());

const at = '2026-11-22T12:00:00.000Z';

describe('compiled queries', () => {
  it('read what is committed, and never what a transaction still holds (it may yet roll back)', async () => {
    t = await createTestDb({ migrated: true });
    const db = t.db.kysely;
    const settingOf = preparedQuery(db, (key: string) =>
      db.selectFrom('settings').select('value').where('key', '=', key),
    );
    await db.insertInto('settings').values({ key: 'prueba', value: 'uno', updated_at: at }).execute();
    expect(await settingOf('prueba')).toEqual([{ value: 'uno' }]);

    let readDuring: Promise<{ value: string }[]> | undefined;
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('settings').set({ value: 'dos' }).where('key', '=', 'prueba').execute();
        // Another request reads while this transaction is open, then the transaction fails.
        readDuring = settingOf('prueba');
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('se deshace');
      })
      .catch(() => {});
    expect(await readDuring).toEqual([{ value: 'uno' }]);
    expect(await settingOf('prueba')).toEqual([{ value: 'uno' }]);
  });

  it('run inside a transaction on its own connection, seeing its own changes', async () => {
    t = await createTestDb({ migrated: true });
    const db = t.db.kysely;
    await db.insertInto('settings').values({ key: 'prueba', value: 'uno', updated_at: at }).execute();
    const seen = await db.transaction().execute(async (trx) => {
      await trx.updateTable('settings').set({ value: 'dos' }).where('key', '=', 'prueba').execute();
      const inside = preparedQuery(trx, (key: string) =>
        trx.selectFrom('settings').select('value').where('key', '=', key),
      );
      return inside('prueba');
    });
    expect(seen).toEqual([{ value: 'dos' }]);
  });
});
