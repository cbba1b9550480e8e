import { type Kysely, Migrator, sql } from 'kysely';
import { expect, it } from 'vitest';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { auditRowHash, GENESIS_HASH } from '#server/platform/audit/audit-chain';
import { createTestDb } from '#server/testing/test-app';
import { migrationProvider } from './index';

it('chains the rows written before the upgrade in their order, and the next row follows them', async () => {
  const testDb = await createTestDb();
  try {
    const { db } = testDb;
    const migrator = new Migrator({ db: db.kysely, provider: migrationProvider(db.dialect) });
    expect((await migrator.migrateTo('017-audit-without-personal-data')).error).toBeUndefined();
    const k = db.kysely as unknown as Kysely<unknown>;
    for (const [i, action] of ['auth.login', 'record.vote', 'setting.update'].entries()) {
      await sql`insert into audit_log (at, actor_email, action, target, details)
        values (${`2026-11-20T10:00:0${i}.000Z`}, 'ana@example.org', ${action}, 'record:1', '{"a":1}')`.execute(k);
    }
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    await writeAudit(db.kysely, { actorEmail: 'ana@example.org', action: 'auth.logout' });

    const rows = await db.kysely.selectFrom('audit_log').selectAll().orderBy('id').execute();
    expect(rows.map((r) => [r.seq, r.action])).toEqual([
      [1, 'auth.login'],
      [2, 'record.vote'],
      [3, 'setting.update'],
      [4, 'auth.logout'],
    ]);
    let prev = GENESIS_HASH;
    for (const row of rows) {
      expect(row.prev_hash).toBe(prev);
      expect(row.hash).toBe(auditRowHash({ ...row, seq: row.seq ?? 0, prev_hash: prev }));
      prev = row.hash ?? '';
    }
    expect(await db.kysely.selectFrom('audit_chain_head').select(['seq', 'hash']).execute()).toEqual([
      { seq: 4, hash: prev },
    ]);
  } finally {
    await testDb.destroy();
  }
});
