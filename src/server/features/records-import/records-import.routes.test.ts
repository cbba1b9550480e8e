import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { addRecords } from '#server/testing/records';
import { importCsv, multipartFile } from '#server/testing/records-import-fixtures';
import { checkTotals } from '#server/testing/results';
import { createTestApp, type TestApp, testDialect } from '#server/testing/test-app';
import type { ImportEvent, ImportResult } from '#shared/features/records-import/records-import';
import { recordCodeFor } from '#shared/platform/record-code';
import { recordFieldMessages } from '#shared/platform/record-fields';
import { removeStaleImports } from './records-import.upload';

let t: TestApp;
let admin: string;
afterEach(async () => t?.close());

async function setup(): Promise<void> {
  t = await createTestApp();
  await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
  admin = await sessionCookie(t, 'jefa@example.org');
}

const HEADER = 'Comunidades;Nombre;UBCH;Telefono;rephrase\r\n';

async function send(content: Buffer | string, query = 'mode=simulacion', extraHeaders: Record<string, string> = {}) {
  const file = multipartFile(content, 'registros.csv');
  return t.request({
    method: 'POST',
    url: `/api/admin/records/import?${query}`,
    headers: { cookie: admin, ...file.headers, ...extraHeaders },
    payload: file.payload,
  });
}
async function report(content: Buffer | string, query?: string) {
  const res = await send(content, query);
  return { status: res.statusCode, ...(res.json() as ImportResult) };
}

const countRecords = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('records')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
async function summary(slug: string) {
  const repo = createRecordsRepository(t.db.kysely);
  const department = (await repo.listMunicipalities()).find((d) => d.slug === slug);
  return repo.summary(department?.id ?? -1);
}
const expectCountersRight = async () => expect((await checkTotals(t.db.kysely)).differences).toEqual([]);

describe('CSV import: a good file', () => {
  it('shows what will happen in a dry run, then imports every row in one go with one audit row', async () => {
    await setup();
    const csv = importCsv(30, { departments: ['cabimas', 'lagunillas', 'machiques-de-perija'] });

    const dry = await report(csv);
    expect(dry.status).toBe(200);
    expect(dry.message).toBe('Revisión terminada: todavía no se importó nada.');
    expect(dry.report).toMatchObject({
      mode: 'simulacion',
      applied: false,
      fileName: 'registros.csv',
      bytes: Buffer.byteLength(csv),
      encoding: 'utf-8',
      separator: ';',
      columns: {
        comunidad: 'Comunidades',
        nombre: 'Nombre',
        ubch: 'UBCH',
        telefono: 'Telefono',
        department: 'rephrase',
      },
      rows: 30,
      valid: 30,
      duplicatesInFile: 0,
      duplicatesInDatabase: 0,
      invalid: 0,
      fileProblems: [],
      rowProblems: [],
    });
    expect(dry.report.byDepartment).toEqual([
      { slug: 'cabimas', title: 'Cabimas', rows: 10 },
      { slug: 'lagunillas', title: 'Lagunillas', rows: 10 },
      { slug: 'machiques-de-perija', title: 'Machiques de Perijá', rows: 10 },
    ]);
    expect(await countRecords()).toBe(0);
    expect(await listAudit(t.db.kysely, { action: 'records.import' })).toEqual([]);

    const applied = await report(csv, 'mode=importar');
    expect(applied.status).toBe(201);
    expect(applied.message).toBe('Se importaron 30 registros.');
    expect(applied.report).toMatchObject({ mode: 'importar', applied: true, valid: 30 });
    expect(await countRecords()).toBe(30);
    expect(await summary('cabimas')).toEqual({ total: 10, voted: 0, validated: 0 });
    await expectCountersRight();

    const audit = await listAudit(t.db.kysely, { action: 'records.import' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_email: 'jefa@example.org', department_slug: null, target: 'registros.csv' });
    expect(JSON.parse(audit[0]!.details!)).toMatchObject({
      rows: 30,
      imported: 30,
      duplicatesInFile: 0,
      duplicatesInDatabase: 0,
      omittedWithErrors: 0,
      encoding: 'utf-8',
      byDepartment: { cabimas: 10, lagunillas: 10, 'machiques-de-perija': 10 },
    });

    // The same file again: everything is already there.
    const again = await report(csv, 'mode=importar');
    expect(again.status).toBe(200);
    expect(again.message).toBe('No hay filas nuevas que importar.');
    expect(again.report).toMatchObject({ valid: 0, duplicatesInDatabase: 30, applied: false });
    expect(await countRecords()).toBe(30);
  });

  it.each([
    ['semicolons with a BOM', '\uFEFFComunidades;Nombre;UBCH;Telefono;Departamento\r\n', ';'],
    ['commas, upper case and accents', 'COMUNIDADES,NOMBRE,UBCH,TELÉFONO,DEPARTAMENTO\n', ','],
    ['the spec’s names', 'Comunidad;Nombre;ubch;teléfono;slug\n', ';'],
    ['tabs and extra columns', 'ID\tComunidades\tNombre\tUBCH\tTelefono\tMunicipio\tNotas\n', '\t'],
  ] as const)('reads a header with %s', async (_name, header, sep) => {
    await setup();
    const extra = header.startsWith('ID');
    const line = (cells: string[]) => `${(extra ? ['7', ...cells, 'x'] : cells).join(sep)}\n`;
    const csv =
      header +
      line(['Sector 1', 'Ana Pérez', 'UBCH 1', '0414-1000001', 'Cabimas']) +
      line(['Sector 2', 'Luis Añez', 'UBCH 2', '0414-1000002', 'MACHIQUES DE PERIJÁ']) +
      line(['Sector 3', 'Rosa Paz', 'UBCH 3', '0414-1000003', 'la-canada-de-urdaneta']);
    const res = await report(csv, 'mode=importar');
    expect(res.status, JSON.stringify(res.report.fileProblems)).toBe(201);
    expect(res.report.separator).toBe(sep);
    expect(res.report.valid).toBe(3);
    expect(res.report.byDepartment.map((d) => d.slug)).toEqual([
      'cabimas',
      'machiques-de-perija',
      'la-canada-de-urdaneta',
    ]);
    expect(res.report.encoding).toBe(header.startsWith('\uFEFF') ? 'utf-8-bom' : 'utf-8');
  });

  it('reads a Latin-1 file (what Excel writes on Spanish Windows) with its accents', async () => {
    await setup();
    const text = `${HEADER}Urb. La Chinita;José Añez Semprún;UBCH 1;0414-1000001;Machiques de Perijá\r\n`;
    const res = await report(Buffer.from(text, 'latin1'), 'mode=importar');
    expect(res.status).toBe(201);
    expect(res.report.encoding).toBe('latin-1');
    const row = await t.db.kysely.selectFrom('records').select(['nombre']).executeTakeFirstOrThrow();
    expect(row.nombre).toBe('José Añez Semprún');
  });

  it('puts rows without a department column in the municipality chosen for the file', async () => {
    await setup();
    const csv = 'Comunidades;Nombre;UBCH;Telefono\r\nSector;Ana;U1;0414-1000001\r\nSector;Luis;U2;0414-1000002\r\n';
    const without = await report(csv);
    expect(without.status).toBe(422);
    expect(without.report.fileProblems[0]?.reason).toMatch(
      /^El encabezado no tiene la columna Departamento \(o rephrase\)/,
    );
    const res = await report(csv, 'mode=importar&department=sucre');
    expect(res.status).toBe(201);
    expect(await summary('sucre')).toEqual({ total: 2, voted: 0, validated: 0 });
    const unknown = await send(csv, 'mode=importar&department=no-existe');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('El municipio o parroquia no existe.');
  });

  it('tolerates blank lines at the end of the file', async () => {
    await setup();
    const res = await report(`${HEADER}S;Ana;U;0414-1000001;cabimas\r\n\r\n;;;;\r\n\r\n`);
    expect(res.status).toBe(200);
    expect(res.report).toMatchObject({ rows: 1, valid: 1, fileProblems: [] });
  });
});

describe('CSV import: files that trip hand-written readers', () => {
  it('reads a BOM, a line break inside quotes and a separator closing every line, each row on its line', async () => {
    await setup();
    const csv =
      '\uFEFFComunidades;Nombre;UBCH;Telefono;rephrase;\r\n' +
      '"Barrio\r\nAlto";Ana Pérez;UBCH 1;0414-1000001;cabimas;\r\n' +
      'Sector 2;Luis Añez;UBCH 2;0414-1000002;cabimas;\r\n' +
      'Sector 3;;UBCH 3;0414-1000003;cabimas;\r\n';
    const res = await report(csv);
    expect(res.status).toBe(200);
    expect(res.report).toMatchObject({
      encoding: 'utf-8-bom',
      separator: ';',
      columns: { comunidad: 'Comunidades', department: 'rephrase' },
      rows: 3,
      valid: 1,
      invalid: 2,
      fileProblems: [],
    });
    expect(res.report.rowProblems).toEqual([
      { line: 2, column: 'Comunidades', reason: recordFieldMessages.controlChars },
      { line: 5, column: 'Nombre', reason: recordFieldMessages.nombreRequired },
    ]);
  });

  it('refuses a quote left open on the last line, naming that line', async () => {
    await setup();
    const res = await report(`${HEADER}S;Ana;U;0414-1000001;cabimas\r\nS;"Luis;U;0414-1000002;cabimas`);
    expect(res.status).toBe(422);
    expect(res.report.fileProblems).toEqual([
      {
        line: 3,
        column: null,
        reason: 'Comillas sin cerrar: el campo que empieza en la línea 3 no se cierra antes del fin del archivo.',
      },
    ]);
  });
});

describe('CSV import: duplicates and row errors', () => {
  it('finds the same person (name and phone, same municipality) in the file and in the database', async () => {
    await setup();
    const [existing] = await addRecords(t, 'cabimas', [{ nombre: 'María Pérez', telefono: '0414-6123456' }]);
    const csv =
      HEADER +
      'S;MARIA PEREZ;U;+58 414 612 34 56;cabimas\r\n' + // line 2: in the database
      'S;Ana Paz;U;0414-1000001;cabimas\r\n' + // line 3: new
      'S;ana  paz;U;04141000001;Cabimas\r\n' + // line 4: repeats line 3
      'S;Ana Paz;U;0414-1000001;lagunillas\r\n' + // line 5: another municipality, new
      'S;María Pérez;U;0414-6123456;lagunillas\r\n'; // line 6: new in Lagunillas
    const dry = await report(csv);
    expect(dry.report).toMatchObject({ rows: 5, valid: 3, duplicatesInFile: 1, duplicatesInDatabase: 1 });
    expect(dry.report.duplicates).toEqual([
      {
        line: 2,
        nombre: 'MARIA PEREZ',
        telefono: '+58 414 612 34 56',
        department: 'Cabimas',
        sameAsLine: null,
        sameAsRecord: existing,
      },
      {
        line: 4,
        nombre: 'ana  paz',
        telefono: '04141000001',
        department: 'Cabimas',
        sameAsLine: 3,
        sameAsRecord: null,
      },
    ]);
    const applied = await report(csv, 'mode=importar');
    expect(applied.status).toBe(201);
    expect(applied.message).toBe('Se importaron 3 registros.');
    expect(await summary('cabimas')).toEqual({ total: 2, voted: 0, validated: 0 });
    expect(await summary('lagunillas')).toEqual({ total: 2, voted: 0, validated: 0 });
    await expectCountersRight();
  });

  it('reports each bad row with line, column and reason; imports nothing unless asked to leave them out', async () => {
    await setup();
    const csv =
      HEADER +
      'S;Ana Paz;U;0414-1000001;cabimas\r\n' +
      'S;;U;0414-1000002;cabimas\r\n' +
      'S;Luis;U;llamar;cabimas\r\n' +
      'S;Rosa;U;0414-1000004;maracaibo\r\n' +
      'S;Pedro;U;0414-1000005\r\n' +
      'S;Juan;U;123;\r\n' +
      `${'x'.repeat(301)};Carmen;U;0414-1000007;cabimas\r\n` +
      'S;Eva;U;0414-1000008;cabimas\r\n';
    const dry = await report(csv);
    expect(dry.status).toBe(200);
    expect(dry.report).toMatchObject({ rows: 8, valid: 2, invalid: 6, rowProblemsTotal: 7 });
    expect(dry.report.rowProblems).toEqual([
      { line: 3, column: 'Nombre', reason: 'Escribe el nombre.' },
      {
        line: 4,
        column: 'Telefono',
        reason: 'El teléfono solo puede tener números, espacios, +, -, paréntesis y puntos.',
      },
      { line: 5, column: 'rephrase', reason: 'No existe el municipio o parroquia «maracaibo».' },
      { line: 6, column: null, reason: 'La fila tiene 4 columnas y el encabezado 5.' },
      { line: 7, column: 'Telefono', reason: 'El teléfono debe tener entre 7 y 15 dígitos.' },
      { line: 7, column: 'rephrase', reason: 'Falta el municipio o parroquia.' },
      { line: 8, column: 'Comunidades', reason: 'No puede tener más de 300 caracteres.' },
    ]);

    const blocked = await report(csv, 'mode=importar');
    expect(blocked.status).toBe(422);
    expect(blocked.message).toBe(
      'No se importó nada: hay filas con errores. Corrígelas y vuelve a intentarlo, o importa solo las filas válidas.',
    );
    expect(blocked.report.applied).toBe(false);
    expect(await countRecords()).toBe(0);

    const partial = await report(csv, 'mode=importar&omitInvalid=1');
    expect(partial.status).toBe(201);
    expect(partial.message).toBe('Se importaron 2 registros.');
    expect(await countRecords()).toBe(2);
    const [audit] = await listAudit(t.db.kysely, { action: 'records.import' });
    expect(JSON.parse(audit!.details!)).toMatchObject({ imported: 2, omittedWithErrors: 6 });
    await expectCountersRight();
  });
});

const MB_LINE = `${HEADER}S;${'x'.repeat(1024 * 1024)};U;0414-1000001;cabimas\r\n`;

describe('CSV import: malformed files import nothing and say why', () => {
  const cases: [string, Buffer | string, RegExp][] = [
    [
      'unbalanced quotes',
      `${HEADER}S;Ana;U;0414-1000001;cabimas\r\n"S;Luis;U;0414-1000002;cabimas\r\nS;Rosa;U;0414-1000003;cabimas\r\n`,
      /^Comillas sin cerrar: el campo que empieza en la línea 3 no se cierra antes del fin del archivo\.$/,
    ],
    [
      'text after closing quotes',
      `${HEADER}"S"x;Ana;U;0414-1000001;cabimas\r\n`,
      /^Comillas mal cerradas en la línea 2/,
    ],
    [
      'a wrong header',
      'Nombre completo;Cédula;Dirección\r\nAna;123;Calle\r\n',
      /^El encabezado no tiene las columnas Comunidades, UBCH, Telefono, Departamento \(o rephrase\)\. .*se encontró: «Nombre completo», «Cédula», «Dirección»\.$/,
    ],
    [
      'a header naming a column twice',
      'Comunidades;Nombre;UBCH;Telefono;rephrase;Departamento\r\nS;Ana;U;0414-1000001;cabimas;cabimas\r\n',
      /^La columna Departamento \(o rephrase\) aparece dos veces en el encabezado \(columnas 5 y 6\)\.$/,
    ],
    [
      'empty lines',
      `${HEADER}S;Ana;U;0414-1000001;cabimas\r\n\r\nS;Luis;U;0414-1000002;cabimas\r\n`,
      /^Línea vacía en medio del archivo/,
    ],
    ['a 1 MB line', MB_LINE, /^La línea 2 tiene más de 64 KB: no parece una fila de este archivo/],
    [
      'UTF-16',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(HEADER, 'utf16le')]),
      /^El archivo está en UTF-16/,
    ],
    [
      'an Excel workbook',
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]),
      /^Es un libro de Excel \(\.xlsx\), no un CSV/,
    ],
    ['NUL bytes', Buffer.from(`${HEADER}S;Ana\u0000;U;0414-1000001;cabimas\r\n`), /^El archivo tiene bytes nulos/],
    [
      'mixed encodings',
      Buffer.concat([
        Buffer.from(`${HEADER}S;José;U;0414-1000001;cabimas\r\n`),
        Buffer.from('S;Añez;U;0414-1000002;cabimas\r\n', 'latin1'),
      ]),
      /^El archivo mezcla codificaciones: tiene letras en UTF-8 y 1 byte que no es UTF-8 \(el primero en la línea 3\)/,
    ],
    ['an empty file', '', /^El archivo está vacío\.$/],
    ['only a header', HEADER, /^El archivo no tiene filas de datos debajo del encabezado\.$/],
  ];

  it.each(cases)('%s', async (_name, content, reason) => {
    await setup();
    await addRecords(t, 'cabimas', 1);
    for (const mode of ['simulacion', 'importar', 'importar&omitInvalid=1']) {
      const res = await report(content, `mode=${mode}`);
      expect(res.status, mode).toBe(422);
      expect(res.message).toBe('No se importó nada: el archivo tiene problemas que impiden leerlo.');
      expect(res.report.applied).toBe(false);
      expect(res.report.fileProblems[0]?.reason).toMatch(reason);
    }
    expect(await countRecords()).toBe(1);
    expect(await listAudit(t.db.kysely, { action: 'records.import' })).toEqual([]);
  });

  it('asks for the file when there is none', async () => {
    await setup();
    const res = await t.request({
      method: 'POST',
      url: '/api/admin/records/import',
      headers: { cookie: admin },
      payload: { file: 'no' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Adjunta el archivo CSV.');
  });
});

describe('CSV import: all or nothing, progress, size', () => {
  it('leaves nothing behind when the database fails halfway through', async () => {
    await setup();
    if (testDialect === 'sqlite') {
      await sql`create trigger fail_import before insert on records when new.nombre = 'Falla Aquí'
        begin select raise(abort, 'falla de prueba'); end`.execute(t.db.kysely);
    } else {
      await sql`create function fail_import() returns trigger language plpgsql as $$
        begin if new.nombre = 'Falla Aquí' then raise exception 'falla de prueba'; end if; return new; end $$`.execute(
        t.db.kysely,
      );
      await sql`create trigger fail_import before insert on records for each row execute function fail_import()`.execute(
        t.db.kysely,
      );
    }
    const csv = `${importCsv(1_200, { departments: ['cabimas'] })}S;Falla Aquí;U;0414-9999999;cabimas\r\n`;
    const res = await send(csv, 'mode=importar');
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toBe('Ocurrió un error inesperado. Intenta de nuevo en unos minutos.');
    expect(await countRecords()).toBe(0);
    expect(await summary('cabimas')).toEqual({ total: 0, voted: 0, validated: 0 });
    expect(await listAudit(t.db.kysely, { action: 'records.import' })).toEqual([]);
  });

  it('clears at start the temporary files of imports a crash interrupted, not those of one under way', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-imports-'));
    try {
      const hourAndHalfAgo = new Date(Date.now() - 90 * 60 * 1000);
      for (const name of ['a.csv.part', 'b.csv.part', 'notas.txt']) {
        fs.writeFileSync(path.join(dir, name), 'x');
        if (!name.startsWith('b')) fs.utimesSync(path.join(dir, name), hourAndHalfAgo, hourAndHalfAgo);
      }
      await removeStaleImports(dir);
      expect(fs.readdirSync(dir).sort()).toEqual(['b.csv.part', 'notas.txt']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('tells its progress line by line when asked for application/x-ndjson', async () => {
    await setup();
    const csv = importCsv(2_000, { departments: ['cabimas'] });
    const bytes = Buffer.byteLength(csv);
    const eventsOf = (body: string) =>
      body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as ImportEvent);
    // The dry run checks: its progress is the file read so far.
    const dry = eventsOf((await send(csv, 'mode=simulacion', { accept: 'application/x-ndjson' })).body);
    const checking = dry.filter((e) => e.type === 'progress');
    expect(new Set(checking.map((e) => e.phase))).toEqual(new Set(['revisando']));
    expect(checking.at(-1)).toEqual({ type: 'progress', phase: 'revisando', done: bytes, total: bytes });

    const res = await send(csv, 'mode=importar', { accept: 'application/x-ndjson' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const events = eventsOf(res.body);
    // The import reads the file once and saves as it reads: one phase, the file read so far.
    const saving = events.filter((e) => e.type === 'progress');
    expect(new Set(saving.map((e) => e.phase))).toEqual(new Set(['guardando']));
    expect(saving.at(-1)).toEqual({ type: 'progress', phase: 'guardando', done: bytes, total: bytes });
    const last = events.at(-1);
    expect(last).toMatchObject({ type: 'result', status: 201, body: { message: 'Se importaron 2.000 registros.' } });
    expect(await countRecords()).toBe(2_000);

    // A refused import arrives the same way, with the status the plain answer would have.
    const refused = await send('', 'mode=importar', { accept: 'application/x-ndjson' });
    expect(JSON.parse(refused.body.trim().split('\n').at(-1) as string)).toMatchObject({ type: 'result', status: 422 });
  });

  it('imports 20,000 rows completely, streaming the file', async () => {
    await setup();
    await addRecords(t, 'cabimas', 500); // people already there are left alone
    const csv = importCsv(20_000, { departments: ['cabimas', 'lagunillas', 'sucre', 'mara'], start: 1_000_000 });
    const res = await report(csv, 'mode=importar');
    expect(res.status).toBe(201);
    expect(res.report).toMatchObject({ rows: 20_000, valid: 20_000, invalid: 0, applied: true });
    expect(await countRecords()).toBe(20_500);
    expect(await summary('cabimas')).toEqual({ total: 5_500, voted: 0, validated: 0 });
    await expectCountersRight();
    // Every imported record has its own short code for SMS votes (decision 084).
    const codes = await t.db.kysely.selectFrom('records').select(['id', 'short_code']).execute();
    expect(codes.every((r) => r.short_code === recordCodeFor(r.id))).toBe(true);
    // How long it takes is the benchmark's (`npm run bench -- records-import`: 100,000 rows, 15 s, 300 MB).
  }, 60_000);
});
