import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '#server/cli';
import { importAfterPurgeMessage } from '#server/core/records/purge-hold';
import type { Config } from '#server/platform/config/config';
import { createTestApp, setElectionPhase, type TestApp } from '#server/testing/test-app';
import {
  type AirtableContractServer,
  makeAirtableAgenda,
  makeAirtableRecords,
  startAirtableContractServer,
} from '#tests/support/airtable-contract-server';
import { runAirtableCommand } from './airtable.cli';

let s: AirtableContractServer | undefined;
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  await s?.close();
  t = undefined;
  s = undefined;
});

const PURGED_AT = new Date('2026-11-29T02:00:00Z');

function configOf(server: AirtableContractServer, app: TestApp): Config {
  return {
    ...app.config,
    airtable: {
      token: server.token,
      baseId: server.baseId,
      recordsTable: 'Zulia',
      agendaTable: 'agenda',
      apiUrl: server.url,
      writeback: false,
    },
  };
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), readPassword: async () => '' };
  return { io, out, err };
}

const names = async () =>
  (await t?.db.kysely.selectFrom('records').select('nombre').orderBy('id').execute())?.map((r) => r.nombre);

describe('airtable:import after the purge', () => {
  it('is refused, naming the purge, until an admin starts a new election day', async () => {
    s = await startAirtableContractServer({ tables: { Zulia: makeAirtableRecords(3), agenda: makeAirtableAgenda(1) } });
    t = await createTestApp();
    const import1 = capture();
    const run = (c: ReturnType<typeof capture>) =>
      runAirtableCommand(
        'airtable:import',
        [],
        t?.db.kysely as NonNullable<typeof t>['db']['kysely'],
        c.io,
        () => new Date(),
        {
          config: configOf(s as AirtableContractServer, t as TestApp),
          progress: { isTTY: false, write: () => true },
        },
      );
    expect(await run(import1)).toBe(0);
    const imported = await names();
    expect(imported).toHaveLength(3);

    await setElectionPhase(t.db, 'cerrada', PURGED_AT);
    const purge = capture();
    expect(
      await runCli(['records:purge', '--conservar-fotos', '--confirmar'], t.db.kysely, purge.io, () => PURGED_AT),
    ).toBe(0);
    const purged = await names();
    expect(purged?.some((n) => imported?.includes(n))).toBe(false);
    // Reopened for the next election's lists (as for the CSV import); the purge still holds imports back.
    await setElectionPhase(t.db, 'preparacion', new Date());

    // Airtable still holds every name: the import is refused before it reads anything, and writes nothing.
    const requestsBefore = s.requests.length;
    const refused = capture();
    expect(await run(refused)).toBe(1);
    expect(refused.err).toEqual([importAfterPurgeMessage(PURGED_AT.toISOString())]);
    expect(refused.err[0]).toContain('Borrar datos personales');
    expect(refused.err[0]).toContain('28 de noviembre de 2026');
    expect(s.requests.length).toBe(requestsBefore);
    expect(await names()).toEqual(purged);

    // A new election day: the lists of another election may come in.
    const newDay = capture();
    expect(await runCli(['records:new-day'], t.db.kysely, newDay.io)).toBe(2);
    expect(await runCli(['records:new-day', '--confirmar'], t.db.kysely, newDay.io)).toBe(0);
    expect(newDay.out.at(-1)).toBe('Jornada nueva: las importaciones (CSV y Airtable) vuelven a estar permitidas.');
    const [row] = await t.db.kysely
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'records.new_day')
      .execute();
    expect(row).toEqual({ action: 'records.new_day' });
    const again = capture();
    expect(await run(again)).toBe(0);
    expect(await names()).toEqual(imported);
  });
});
