import { afterEach, describe, expect, it } from 'vitest';
import { listAudit, readChainHead } from '#server/platform/audit/audit.repository';
import { auditRowHash, GENESIS_HASH } from '#server/platform/audit/audit-chain';
import { timedAnswers } from '#server/platform/cache/cache';
import { createTestDb, type TestDb } from '#server/testing/test-app';
import { runChange } from './change';

let t: TestDb;
afterEach(async () => t?.destroy());

const at = new Date('2026-11-22T12:00:00.000Z');

// Kept far longer than any test runs: only a forget can drop an answer.
const answers = timedAnswers<string>({ ttlMs: 3_600_000, maxEntries: 10 });

/** The answer kept for 'clave', and how many times it had to be loaded. */
async function keptAnswer(db: TestDb['db']['kysely'], loads: { n: number }) {
  return answers(db).get('clave', async () => {
    loads.n++;
    return `carga ${loads.n}`;
  });
}

const settingOf = async (db: TestDb['db']['kysely'], key: string) =>
  (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;

/** A use case: a setting and its audit row, then (when told to) a failure after both. */
const useCase = (db: TestDb['db']['kysely'], fail: boolean) =>
  runChange(
    db,
    async ({ trx, audit }) => {
      await trx.insertInto('settings').values({ key: 'prueba', value: 'uno', updated_at: at.toISOString() }).execute();
      await audit({ actorEmail: 'jefa@example.org', action: 'prueba.cambio', target: 'prueba', at });
      if (fail) throw new Error('falla después de su fila de auditoría');
      return 'hecho';
    },
    { forget: [answers] },
  );

describe('the change helper', () => {
  it('leaves neither the change nor its audit row when the use case throws after writing both, and keeps the answers', async () => {
    t = await createTestDb({ migrated: true });
    const db = t.db.kysely;
    const loads = { n: 0 };
    expect(await keptAnswer(db, loads)).toBe('carga 1');

    await expect(useCase(db, true)).rejects.toThrow('falla después de su fila de auditoría');

    expect(await settingOf(db, 'prueba')).toBeUndefined();
    expect(await listAudit(db, { action: 'prueba.cambio' })).toEqual([]);
    // Nothing changed, so nothing was forgotten.
    expect(await keptAnswer(db, loads)).toBe('carga 1');
  });

  it('stores the change with its audit row, and forgets the answers it names once committed', async () => {
    t = await createTestDb({ migrated: true });
    const db = t.db.kysely;
    const loads = { n: 0 };
    expect(await keptAnswer(db, loads)).toBe('carga 1');

    expect(await useCase(db, false)).toBe('hecho');

    expect(await settingOf(db, 'prueba')).toBe('uno');
    const rows = await listAudit(db, { action: 'prueba.cambio' });
    expect(rows.map((r) => [r.actor_email, r.target, r.at])).toEqual([
      ['jefa@example.org', 'prueba', at.toISOString()],
    ]);
    expect(await keptAnswer(db, loads)).toBe('carga 2');
  });

  it('refuses to run inside another transaction, whose commit it could not wait for', async () => {
    t = await createTestDb({ migrated: true });
    const db = t.db.kysely;
    await expect(db.transaction().execute((trx) => useCase(trx, false))).rejects.toThrow(/own transaction/);
    expect(await settingOf(db, 'prueba')).toBeUndefined();
  });
  it("chains a change's audit rows at its commit: a step undone by its savepoint takes its rows along, the head read inside the change counts the rest", async () => {
    t = await createTestDb({ migrated: true });
    const db = t.db.kysely;
    const row = (target: string) => ({ actorEmail: 'jefa@example.org', action: 'prueba.paso', target, at });
    const heads = await runChange(db, async (change) => {
      await change.audit(row('uno'));
      await expect(
        change.savepoint(async () => {
          await change.audit(row('deshecho'));
          throw new Error('el paso falla');
        }),
      ).rejects.toThrow('el paso falla');
      const afterOne = await readChainHead(change.trx);
      await change.savepoint(() => change.audit(row('dos')));
      // Undone after the head was read (and the rows before it chained): those stay, this one goes.
      await expect(
        change.savepoint(async () => {
          await change.audit(row('también deshecho'));
          await readChainHead(change.trx);
          throw new Error('falla después de leer la cabeza');
        }),
      ).rejects.toThrow('falla después de leer la cabeza');
      await change.audit(row('tres'));
      return { afterOne };
    });

    const rows = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'prueba.paso')
      .orderBy('seq')
      .execute();
    expect(rows.map((r) => r.target)).toEqual(['uno', 'dos', 'tres']);
    expect(heads.afterOne?.seq).toBe(rows[0]?.seq);
    // One chain without gaps, each row's hash its content's, and the head at the last row.
    let previous = GENESIS_HASH;
    const all = await db.selectFrom('audit_log').selectAll().orderBy('seq').execute();
    for (const [i, r] of all.entries()) {
      expect(r.seq).toBe(i + 1);
      expect(r.prev_hash).toBe(previous);
      expect(r.hash).toBe(auditRowHash({ ...r, seq: Number(r.seq), prev_hash: r.prev_hash ?? '' }));
      previous = r.hash ?? '';
    }
    expect(await readChainHead(db)).toEqual({ seq: all.length, hash: previous });
  });
});
