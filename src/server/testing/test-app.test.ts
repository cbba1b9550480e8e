import { describe, expect, it } from 'vitest';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { createUser } from './auth-helpers';
import { createTestDb, testDialect } from './test-app';

describe('test databases', () => {
  it('each migrated one starts as the template: the schema, no rows, identities from 1', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = await createTestDb({ migrated: true });
      try {
        expect(await t.db.kysely.selectFrom('users').selectAll().execute()).toEqual([]);
        expect(await t.db.kysely.selectFrom('departments').selectAll().execute()).toEqual([]);
        await seedReferenceData(t.db, new Date());
        ids.push((await createUser(t.db, { email: `persona${i}@example.org`, role: 'admin' })).id);
      } finally {
        await t.destroy();
      }
    }
    expect(ids).toEqual([1, 1, 1]);
  });

  it('two at once are two databases', async () => {
    const [a, b] = await Promise.all([createTestDb({ migrated: true }), createTestDb({ migrated: true })]);
    try {
      expect(testDialect === 'sqlite' ? a.options.dataDir : a.options.databaseUrl).not.toBe(
        testDialect === 'sqlite' ? b.options.dataDir : b.options.databaseUrl,
      );
      await createUser(a.db, { email: 'solo.en.a@example.org', role: 'staff' });
      expect(await b.db.kysely.selectFrom('users').selectAll().execute()).toEqual([]);
    } finally {
      await a.destroy();
      await b.destroy();
    }
  });

  it('destroyed twice, it is given back once: the next two are still two databases', async () => {
    const used = await createTestDb({ migrated: true });
    await used.destroy();
    await used.destroy();
    const [a, b] = [await createTestDb({ migrated: true }), await createTestDb({ migrated: true })];
    try {
      expect(testDialect === 'sqlite' ? a.options.dataDir : a.options.databaseUrl).not.toBe(
        testDialect === 'sqlite' ? b.options.dataDir : b.options.databaseUrl,
      );
    } finally {
      await a.destroy();
      await b.destroy();
    }
  });

  it('an empty one has no schema', async () => {
    const t = await createTestDb();
    try {
      await expect(t.db.kysely.selectFrom('users').selectAll().execute()).rejects.toThrow();
    } finally {
      await t.destroy();
    }
  });
});
