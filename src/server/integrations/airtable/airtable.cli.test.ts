import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '#server/cli';
import type { Config } from '#server/platform/config/config';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import {
  type AirtableContractServer,
  makeAirtableAgenda,
  makeAirtableRecords,
  startAirtableContractServer,
} from '#tests/support/airtable-contract-server';
import { runAirtableCommand } from './airtable.cli';
import { createAirtableOutboxRepository } from './airtable-outbox.repository';

let s: AirtableContractServer | undefined;
let t: TestApp | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await t?.close();
  await s?.close();
  t = undefined;
  s = undefined;
});

async function setup() {
  const records = makeAirtableRecords(5, { votedEvery: 2 });
  (records[4] as { fields: Record<string, unknown> }).fields.rephrase = 'atlantida';
  s = await startAirtableContractServer({ tables: { Zulia: records, agenda: makeAirtableAgenda(2) } });
  t = await createTestApp();
  return { s, t };
}

function configOf(server: AirtableContractServer, app: TestApp, overrides: Partial<Config['airtable']> = {}): Config {
  return {
    ...app.config,
    airtable: {
      token: server.token,
      baseId: server.baseId,
      recordsTable: 'Zulia',
      agendaTable: 'agenda',
      apiUrl: server.url,
      writeback: false,
      ...overrides,
    },
  };
}

/** Captures what the command prints, and a terminal that receives the progress bar. */
function capture() {
  const out: string[] = [];
  const err: string[] = [];
  const terminal = {
    isTTY: true,
    text: '',
    write(chunk: string) {
      this.text += chunk;
    },
  };
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err, terminal };
}

describe('npm run cli -- airtable:import', () => {
  it('shows a progress bar on the terminal and a final report; a second run changes nothing', async () => {
    const { s, t } = await setup();
    const c = capture();
    const code = await runAirtableCommand('airtable:import', [], t.db.kysely, c.io, () => new Date(), {
      config: configOf(s, t),
      progress: c.terminal,
    });
    expect(c.err).toEqual([]);
    expect(code).toBe(0);
    expect(c.out).toContain(`Importando desde Airtable: base ${s.baseId}.`);
    expect(c.out).toContain('Trámites («Zulia»): 5 leídos · 4 creados · 0 actualizados · 0 sin cambios · 1 omitidos');
    expect(c.out).toContain('  votos que llegaron de Airtable: 2 · fotos descargadas: 0');
    expect(c.out).toContain('Agenda («agenda»): 2 leídos · 2 creados · 0 actualizados · 0 sin cambios · 0 omitidos');
    expect(c.out).toContain('Omitidos (1):');
    expect(c.out).toContain(
      `  Zulia ${s.table('Zulia')[4]?.id} (Persona 5): municipio desconocido: rephrase «atlantida»`,
    );
    expect(c.terminal.text).toContain('Leyendo «Zulia» de Airtable: 5');
    expect(c.terminal.text).toMatch(/Guardando registros \[█{24}\] 100 % 4\/4/);
    expect(c.terminal.text).toMatch(/Votos \[█{24}\] 100 % 2\/2/);

    const again = capture();
    expect(
      await runAirtableCommand('airtable:import', [], t.db.kysely, again.io, () => new Date(), {
        config: configOf(s, t),
        progress: again.terminal,
      }),
    ).toBe(0);
    expect(again.out).toContain(
      'Trámites («Zulia»): 5 leídos · 0 creados · 0 actualizados · 4 sin cambios · 1 omitidos',
    );
    expect(again.out).toContain(
      'Agenda («agenda»): 2 leídos · 0 creados · 0 actualizados · 2 sin cambios · 0 omitidos',
    );
  });

  it('imports one municipality with --municipio (filterByFormula), and refuses one that does not exist', async () => {
    const { s, t } = await setup();
    const c = capture();
    const options = { config: configOf(s, t), progress: c.terminal };
    expect(
      await runAirtableCommand('airtable:import', ['--municipio', 'Mara'], t.db.kysely, c.io, undefined, options),
    ).toBe(0);
    expect(new URL(s.requests[0]?.url ?? '', s.url).searchParams.get('filterByFormula')).toBe("{rephrase} = 'mara'");
    expect(c.out).toContain('Trámites («Zulia»): 1 leídos · 1 creados · 0 actualizados · 0 sin cambios · 0 omitidos');

    const bad = capture();
    expect(
      await runAirtableCommand('airtable:import', ['--municipio', 'nada'], t.db.kysely, bad.io, undefined, options),
    ).toBe(1);
    expect(bad.err).toEqual(['El municipio o parroquia «nada» no existe (ver access:departments).']);
  });

  it('takes the token only from the environment, and says what is missing or refused', async () => {
    const { s, t } = await setup();
    const flag = capture();
    const options = { config: configOf(s, t), progress: flag.terminal };
    expect(
      await runAirtableCommand('airtable:import', ['--token', 'patX'], t.db.kysely, flag.io, undefined, options),
    ).toBe(1);
    expect(flag.err[0]).toMatch(/no se pasa como argumento .* AIRTABLE_TOKEN/);

    const missing = capture();
    expect(
      await runAirtableCommand('airtable:import', [], t.db.kysely, missing.io, undefined, {
        config: configOf(s, t, { token: undefined }),
      }),
    ).toBe(1);
    expect(missing.err[0]).toMatch(/^Falta AIRTABLE_TOKEN en el entorno/);

    const wrong = capture();
    expect(
      await runAirtableCommand('airtable:import', [], t.db.kysely, wrong.io, undefined, {
        config: configOf(s, t, { token: 'patEQUIVOCADO' }),
        progress: wrong.terminal,
      }),
    ).toBe(1);
    expect(wrong.err[0]).toMatch(/^Airtable rechazó el acceso \(401 AUTHENTICATION_REQUIRED/);
    expect(wrong.err.join('\n')).not.toContain('patEQUIVOCADO');
    expect(s.requests.filter((r) => r.status === 200)).toEqual([]);
  });

  it('runs from the operators’ command line with the environment’s settings', async () => {
    const { s, t } = await setup();
    vi.stubEnv('AIRTABLE_TOKEN', s.token);
    vi.stubEnv('AIRTABLE_BASE_ID', s.baseId);
    vi.stubEnv('AIRTABLE_API_URL', s.url);
    vi.stubEnv('DATA_DIR', t.config.dataDir || '/tmp/comando-cli-airtable');
    vi.stubEnv('DATABASE_URL', '');
    const c = capture();
    const io = { ...c.io, readPassword: async () => '' };
    const help = capture();
    await runCli(['help'], t.db.kysely, { ...help.io, readPassword: async () => '' });
    expect(help.out.join('\n')).toContain('airtable:import [--municipio <slug>]');
    expect(await runCli(['airtable:import'], t.db.kysely, io)).toBe(0);
    expect(c.out).toContain('Trámites («Zulia»): 5 leídos · 4 creados · 0 actualizados · 0 sin cambios · 1 omitidos');
  });
});

describe('npm run cli -- airtable:push', () => {
  it('sends what waits in the outbox now, and keeps it when Airtable does not answer', async () => {
    const { s, t } = await setup();
    const options = { config: configOf(s, t) };
    expect(
      await runAirtableCommand('airtable:import', [], t.db.kysely, capture().io, undefined, {
        ...options,
        progress: capture().terminal,
      }),
    ).toBe(0);
    const ids = await t.db.kysely
      .selectFrom('records')
      .select('id')
      .where('voted_at', 'is', null)
      .orderBy('id')
      .execute();
    const outbox = createAirtableOutboxRepository(t.db.kysely);
    const at = new Date().toISOString();
    for (const { id } of ids)
      await outbox.queue({ recordId: id, field: 'voto', value: 'NR', changeKey: `vote:${id}`, at });

    s.mode = 'down';
    const down = capture();
    expect(await runAirtableCommand('airtable:push', [], t.db.kysely, down.io, undefined, options)).toBe(1);
    expect(down.out[0]).toBe(
      'Enviados a Airtable: 0 cambios en 1 solicitudes. En cola: 2 · rechazados: 0 · enviados en total: 0.',
    );
    expect(down.err[0]).toMatch(/^Airtable no recibió 2 cambios: No se pudo hablar con Airtable/);

    s.mode = 'ok';
    const up = capture();
    expect(await runAirtableCommand('airtable:push', [], t.db.kysely, up.io, undefined, options)).toBe(0);
    expect(up.out).toEqual([
      'Enviados a Airtable: 2 cambios en 1 solicitudes. En cola: 0 · rechazados: 0 · enviados en total: 2.',
    ]);
    expect(s.patches).toHaveLength(1);
    expect(s.patches[0]?.records.map((r) => r.fields)).toEqual([{ voto: 'NR' }, { voto: 'NR' }]);
  });
});
