import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '#server/cli';
import { importAfterPurgeMessage } from '#server/core/records/purge-hold';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { importCsv, multipartFile } from '#server/testing/records-import-fixtures';
import { createTestApp, setElectionPhase, type TestApp } from '#server/testing/test-app';

let t: TestApp;
let admin: string;
afterEach(async () => t?.close());

const PURGED_AT = new Date('2026-11-29T02:00:00Z');

async function send(content: string, mode: 'simulacion' | 'importar') {
  const file = multipartFile(content, 'registros.csv');
  return t.request({
    method: 'POST',
    url: `/api/admin/records/import?mode=${mode}`,
    headers: { cookie: admin, ...file.headers },
    payload: file.payload,
  });
}

const names = async () =>
  (await t.db.kysely.selectFrom('records').select('nombre').orderBy('id').execute()).map((r) => r.nombre);

describe('the CSV import after the purge', () => {
  it('is refused, naming the purge, at the dry run and at the import, until a new election day', async () => {
    t = await createTestApp({}, { electionPhase: 'preparacion' });
    await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
    admin = await sessionCookie(t, 'jefa@example.org');
    const csv = importCsv(6, { departments: ['cabimas'] });
    expect((await send(csv, 'importar')).statusCode).toBe(201);
    const imported = await names();

    await setElectionPhase(t.db, 'cerrada', PURGED_AT);
    const io = { out: () => {}, err: () => {}, readPassword: async () => '' };
    expect(await runCli(['records:purge', '--conservar-fotos', '--confirmar'], t.db.kysely, io, () => PURGED_AT)).toBe(
      0,
    );
    const purged = await names();
    // Even with the day opened again, the same file would bring every name back: refused, naming the purge.
    await setElectionPhase(t.db, 'preparacion', new Date());
    for (const mode of ['simulacion', 'importar'] as const) {
      const res = await send(csv, mode);
      expect([res.statusCode, res.json().message]).toEqual([409, importAfterPurgeMessage(PURGED_AT.toISOString())]);
    }
    expect(await names()).toEqual(purged);

    expect(await runCli(['records:new-day', '--confirmar'], t.db.kysely, io)).toBe(0);
    const again = await send(csv, 'importar');
    expect(again.statusCode, again.body).toBe(201);
    expect(await names()).toEqual([...purged, ...imported]);
  });
});
