import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createUser, TEST_PASSWORD } from '#server/testing/auth-helpers';
import { photoFilesUnder } from '#server/testing/photos';
import { addRecords, castVote, SLUG_A, SLUG_B } from '#server/testing/records';
import { createTestApp, setElectionPhase, TEST_ORIGIN, type TestApp } from '#server/testing/test-app';
import {
  type SmsGatewayContractServer,
  startSmsGatewayContractServer,
} from '#tests/support/sms-gateway-contract-server';
import { type RehearsalOptions, type RehearsalReport, runRehearsal, signInAdmin } from './rehearsal';
import { runRehearsalCommand } from './rehearsal.cli';

let t: TestApp | undefined;
let gateway: SmsGatewayContractServer | undefined;
afterEach(async () => {
  await t?.close();
  await gateway?.close();
  t = undefined;
  gateway = undefined;
});

const ADMIN = 'jefa.ensayo@example.org';
const METRICS_TOKEN = 'metricas-del-ensayo-1234567890';

/** A deployment in Preparación with lists in two municipalities, SMS on, listening on a port. */
async function deployment(): Promise<{ url: string; signingKey: string }> {
  gateway = await startSmsGatewayContractServer();
  t = await createTestApp(
    {
      metricsToken: METRICS_TOKEN,
      sms: {
        url: gateway.url,
        login: gateway.login,
        password: gateway.password,
        signingKey: gateway.signingKey,
        phone: '+584145556677',
      },
    },
    { electionPhase: null },
  );
  await createUser(t.db, { email: ADMIN, role: 'admin' });
  await addRecords(t, SLUG_A, 30);
  await addRecords(t, SLUG_B, 30);
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { url, signingKey: gateway.signingKey };
}

/** A small rehearsal: five phones that each lose one answer in four, ten projectors, five SMS. */
function small(url: string, signingKey: string, more: Partial<RehearsalOptions> = {}): RehearsalOptions {
  return {
    url,
    origin: TEST_ORIGIN,
    phones: 5,
    minutes: 5,
    projectors: 10,
    sms: 5,
    readOnly: false,
    link: { upKbps: 1_000_000, downKbps: 1_000_000, rttMs: 0, cutEveryMs: null, cutEveryRequests: 4 },
    itemsPerPhone: 3,
    photoSide: 320,
    retryBaseMs: 10,
    reportEveryMs: 100,
    readEveryMs: 100,
    smsSigningKey: signingKey,
    metricsToken: METRICS_TOKEN,
    signIn: (admin) => signInAdmin(admin, { email: ADMIN, password: TEST_PASSWORD }, async () => ''),
    out: () => {},
    ...more,
  };
}

/** What the database and the disk hold of the day and of accounts (the rehearsal must leave it so). */
async function stateOf(test: TestApp) {
  const db = test.db.kysely;
  return {
    phase: (await db.selectFrom('election').select('phase').executeTakeFirst())?.phase ?? 'preparacion',
    records: await db.selectFrom('records').select(['id', 'vote_revision', 'updated_at']).orderBy('id').execute(),
    ballots: (await db.selectFrom('record_votes').select('record_id').execute()).length,
    photos: (await db.selectFrom('photos').select('id').execute()).length,
    users: await db.selectFrom('users').select(['email', 'role', 'disabled']).orderBy('email').execute(),
    members: (await db.selectFrom('department_members').select('email').execute()).length,
    phones: (await db.selectFrom('user_phones').select('phone').execute()).length,
    sms: (await db.selectFrom('sms_messages').select('id').execute()).length,
    reporters: (await db.selectFrom('field_reporters').select('user_email').execute()).length,
    devices: (await db.selectFrom('field_devices').select('user_email').execute()).length,
    items: (await db.selectFrom('field_items').select('user_email').execute()).length,
    heard: (await db.selectFrom('election_heard_keys').select('item_key').execute()).length,
    files: photoFilesUnder(test.config.dataDir).filter((f) => f.startsWith('photos')),
  };
}

const verdictsOf = (report: RehearsalReport) => Object.fromEntries(report.verdicts.map((v) => [v.name, v.ok]));

describe('the rehearsal (npm run cli -- ensayo)', () => {
  it('plays a small day in Simulacro over a link that cuts, holds every invariant and leaves the deployment as it was', async () => {
    const { url, signingKey } = await deployment();
    const test = t as TestApp;
    const before = await stateOf(test);
    const report = await runRehearsal(small(url, signingKey));

    expect(report.refused).toBeNull();
    expect(report.notes).toEqual([]);
    for (const v of report.verdicts) expect(v, v.detail).toMatchObject({ ok: true });
    expect(Object.keys(verdictsOf(report))).toEqual(
      expect.arrayContaining([
        'Nada perdido',
        'Nada doble',
        'Campo ve lo que esperan los teléfonos',
        'Resultados cuentan lo guardado',
        'Los proyectores muestran lo guardado',
        '«Terminar simulacro» lo borra todo',
        'Llegadas tardías rechazadas como se espera',
        'El despliegue queda como antes',
        'La cadena de auditoría verifica (audit:verify)',
        'Ningún error del servidor (5xx)',
      ]),
    );
    // Every phone's three votes, a photo with every other vote, and the SMS went through and were erased.
    expect(report.counts.votesAccepted).toBe(15);
    expect(report.counts.photosAccepted).toBe(10);
    expect(report.counts.smsApplied).toBe(5);
    expect(report.counts.stored).toEqual({ votes: 20, photos: 10 });
    expect(report.counts.erased).toMatchObject({ votes: 20, photos: 10, filesLeft: 0, accounts: 5 });
    expect(report.counts.erased?.files).toBeGreaterThanOrEqual(10);
    // The link lost answers the server had taken: the same keys were answered again, nothing doubled.
    expect(report.counts.replayed).toBeGreaterThan(0);
    expect(report.errors.some((e) => e.kind.includes('respuesta perdida'))).toBe(true);
    // The vote kept on each phone at the close reached a server with the drill (and its accounts) gone.
    expect(report.counts.held).toBe(5);
    expect(report.counts.late).toEqual({ sent: 5, accepted: 0, refused: { '401': 5 } });
    expect(report.projector.connections).toBe(10);
    expect(report.metrics?.maxRssMb).toBeGreaterThan(0);
    // No SMS left for the made-up numbers of the drill's accounts.
    expect(gateway?.sent).toEqual([]);
    expect(await stateOf(test)).toEqual(before);
  }, 120_000);

  it('stopped half-way (Ctrl+C) still erases the drill and its accounts', async () => {
    const { url, signingKey } = await deployment();
    const test = t as TestApp;
    const before = await stateOf(test);
    const stop = new AbortController();
    const report = await runRehearsal(
      small(url, signingKey, {
        signal: stop.signal,
        // Stopped as the day begins: the phones are signed in, their reports heard, the drill started.
        out: (line) => {
          if (line === '— Jornada') stop.abort();
        },
      }),
    );
    expect(report.interrupted).toBe(true);
    expect(report.counts.erased?.accounts).toBe(5);
    expect(verdictsOf(report)['El despliegue queda como antes']).toBe(true);
    expect(verdictsOf(report)['Nada perdido']).toBe(true);
    expect(await stateOf(test)).toEqual(before);
  }, 120_000);

  it('refuses outside Preparación, and in Preparación with votes stored; the day is left as it was', async () => {
    const { url, signingKey } = await deployment();
    const test = t as TestApp;
    await setElectionPhase(test.db, 'en_curso', new Date());
    let report = await runRehearsal(small(url, signingKey));
    expect(report.refused).toBe(
      'La jornada está en «en_curso»: el ensayo solo corre en Preparación (o con --solo-lectura).',
    );
    expect(await stateOf(test)).toMatchObject({ phase: 'en_curso', users: [{ email: ADMIN }] });

    const [id] = await addRecords(test, SLUG_A, 1);
    await createUser(test.db, { email: 'validadora@example.org', role: 'staff', departments: [SLUG_A] });
    await castVote(test, id as number, ['FA'], 'validadora@example.org');
    await setElectionPhase(test.db, 'preparacion', new Date());
    report = await runRehearsal(small(url, signingKey));
    expect(report.refused).toBe(
      'Ya hay 1 votos y 0 fotos guardados: el ensayo solo corre sin nada guardado (o con --solo-lectura).',
    );
    expect((await stateOf(test)).phase).toBe('preparacion');

    // Read-only: no change at all, whatever the day holds.
    report = await runRehearsal(small(url, signingKey, { readOnly: true, minutes: 0.001 }));
    expect(report.refused).toBeNull();
    expect(report.counts.requests).toBeGreaterThan(0);
    for (const v of report.verdicts) expect(v, v.detail).toMatchObject({ ok: true });
  }, 120_000);

  it('as a command: checks its arguments, asks the credentials, writes the report', async () => {
    const lines: string[] = [];
    const io = {
      out: (l: string) => lines.push(l),
      err: (l: string) => lines.push(l),
      ask: async () => '',
    };
    expect((await runRehearsalCommand(['--telefonos', '5'], io)).code).toBe(2);
    expect(lines[0]).toBe('Indica el servidor: npm run cli -- ensayo --url https://comando.example.org');
    lines.length = 0;
    expect((await runRehearsalCommand(['--url', 'http://x.example', '--telefonos', '5000'], io)).code).toBe(2);
    expect(lines[0]).toBe('--telefonos debe ser un número entre 0 y 1000.');

    const { url } = await deployment();
    // Its public address is the one listened on here (as PUBLIC_ORIGIN is a deployment's own address).
    (t as TestApp).config.publicOrigin = new URL(url).origin;
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'ensayo-'));
    const asked: string[] = [];
    const answers = [ADMIN, TEST_PASSWORD];
    const done = await runRehearsalCommand(
      ['--url', url, '--solo-lectura', '--minutos', '0.001', '--proyectores', '2', '--informe', 'informe.md'],
      {
        ...io,
        cwd,
        env: {},
        ask: async (question) => {
          asked.push(question);
          return answers.shift() ?? '';
        },
      },
    );
    expect(asked).toEqual(['Correo de la cuenta de administración: ', 'Contraseña: ']);
    expect(done.report?.refused).toBeNull();
    expect(done.code).toBe(0);
    const written = fs.readFileSync(path.join(cwd, 'informe.md'), 'utf8');
    expect(written).toContain('## Veredictos');
    expect(written).toContain('| Ningún error del servidor (5xx) | cumple |');
    expect(lines).toContain(`Informe: ${path.join(cwd, 'informe.md')}`);
    fs.rmSync(cwd, { recursive: true, force: true });
  });
});
