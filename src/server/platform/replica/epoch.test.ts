import { afterEach, describe, expect, it } from 'vitest';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { recordRestoredEpoch, settleEpochAtStart } from './epoch';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);

describe('the database’s epoch', () => {
  it('is 1 for a database made here, and stays while the database is the same one', async () => {
    t = await createTestApp();
    const first = await settleEpochAtStart(t.db, later(1));
    expect(first).toMatchObject({ number: 1, restoredUntil: null });
    expect(await settleEpochAtStart(t.db, later(2))).toEqual(first);
    const rows = await t.db.kysely.selectFrom('database_epochs').select(['epoch', 'cause']).execute();
    expect(rows).toEqual([{ epoch: 1, cause: 'nueva' }]);
  });

  it('starts a new one, from the last change the database holds, when it is not the one its epoch names', async () => {
    t = await createTestApp();
    await t.db.kysely
      .insertInto('audit_log')
      .values({ at: '2026-11-28T20:15:00.000Z', actor_email: 'x@example.org', action: 'auth.login' })
      .execute();
    // What a copy brought from elsewhere looks like: SQLite's folder names another database, PostgreSQL
    // answers from another cluster or timeline (a promoted standby).
    await t.db.kysely.updateTable('database_epochs').set({ origin: 'otra-base' }).execute();
    const now = later(5);
    const epoch = await settleEpochAtStart(t.db, now);
    expect(epoch).toEqual({ number: 2, startedAt: now.toISOString(), restoredUntil: '2026-11-28T20:15:00.000Z' });
    const rows = await t.db.kysely.selectFrom('database_epochs').select(['epoch', 'cause']).orderBy('epoch').execute();
    expect(rows).toEqual([
      { epoch: 1, cause: 'nueva' },
      { epoch: 2, cause: t.db.dialect === 'sqlite' ? 'restaurada' : 'promovida' },
    ]);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'database.epoch')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]?.details ?? '{}')).toEqual({
      cause: rows[1]?.cause,
      restoredUntil: '2026-11-28T20:15:00.000Z',
    });
    // Started again on it: the same epoch.
    expect(await settleEpochAtStart(t.db, later(6))).toEqual(epoch);
  });

  it('is recorded by a restore with the copy’s point, and phones read it in the day’s status', async () => {
    t = await createTestApp();
    const epoch = await recordRestoredEpoch(t.db, {
      cause: 'copia',
      restoredUntil: '2026-11-28T19:00:00.000Z',
      now: later(1),
      actorEmail: 'cli',
    });
    expect(epoch).toMatchObject({ number: 2, restoredUntil: '2026-11-28T19:00:00.000Z' });
    expect(await settleEpochAtStart(t.db, later(2))).toEqual(epoch);
    await createUser(t.db, { email: 'ana@example.org', role: 'staff', departments: [] });
    const cookie = await sessionCookie(t, 'ana@example.org');
    const status = await t.request({ url: '/api/election', headers: { cookie } });
    expect(status.json().epoch).toEqual(epoch);
  });
});
