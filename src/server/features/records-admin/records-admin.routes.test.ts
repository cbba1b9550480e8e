import { afterEach, describe, expect, it } from 'vitest';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { addStoredPhoto } from '#server/testing/photos';
import { addRecords } from '#server/testing/records';
import { importCsv, multipartFile } from '#server/testing/records-import-fixtures';
import { checkTotals } from '#server/testing/results';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { recordCodeFor } from '#shared/platform/record-code';
import { maskPhone } from '#shared/platform/record-fields';
import { createRecordsAdminService } from './records-admin.service';

let t: TestApp;
afterEach(async () => t?.close());

const PEOPLE = {
  admin: 'jefa@example.org',
  validator: 'validador@example.org',
  agenda: 'agenda@example.org',
  notas: 'notas@example.org',
  outsider: 'nadie@example.org',
} as const;
type Person = keyof typeof PEOPLE;

async function setup(): Promise<Record<Person, string>> {
  t = await createTestApp();
  await createUser(t.db, { email: PEOPLE.admin, role: 'admin' });
  await createUser(t.db, { email: PEOPLE.validator, role: 'staff', departments: ['cabimas'] });
  await createUser(t.db, { email: PEOPLE.agenda, role: 'staff', departments: ['agenda'] });
  await createUser(t.db, { email: PEOPLE.notas, role: 'staff', departments: ['notas'] });
  await createUser(t.db, { email: PEOPLE.outsider, role: 'staff' });
  const cookies = {} as Record<Person, string>;
  for (const person of Object.keys(PEOPLE) as Person[]) cookies[person] = await sessionCookie(t, PEOPLE[person]);
  return cookies;
}

const MARIA = {
  comunidad: 'Sector Los Olivos',
  nombre: 'María Pérez',
  ubch: 'UBCH 110100001',
  telefono: '0414-6123456',
};

async function departmentId(slug: string): Promise<number> {
  const found = (await createRecordsRepository(t.db.kysely).listMunicipalities()).find((d) => d.slug === slug);
  if (!found) throw new Error(slug);
  return found.id;
}
const summary = async (slug: string) => createRecordsRepository(t.db.kysely).summary(await departmentId(slug));
const expectCountersRight = async () => expect((await checkTotals(t.db.kysely)).differences).toEqual([]);

function post(cookie: string, url: string, payload?: object) {
  return t.request({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });
}
const list = async (cookie: string, query: string) =>
  (await t.request({ url: `/api/admin/records?${query}`, headers: { cookie } })).json();
const validatorList = async (cookie: string) =>
  (await t.request({ url: '/api/validation/cabimas/records', headers: { cookie } })).json().items as {
    nombre: string;
  }[];

describe('records back office: who may use it', () => {
  it('is for admins only: a visitor gets 401 and everyone else, list editors included, 404', async () => {
    const cookies = await setup();
    const [id] = await addRecords(t, 'cabimas', 1);
    const file = multipartFile('Comunidades;Nombre;UBCH;Telefono;rephrase\r\nA;B;C;0414-1111111;cabimas\r\n');
    const routes = [
      { method: 'GET', url: '/api/admin/records/departments' },
      { method: 'GET', url: '/api/admin/records?department=cabimas' },
      { method: 'GET', url: '/api/admin/records?q=maria' },
      { method: 'POST', url: '/api/admin/records', payload: { department: 'cabimas', ...MARIA } },
      { method: 'PUT', url: `/api/admin/records/${id}`, payload: { department: 'cabimas', ...MARIA } },
      { method: 'POST', url: `/api/admin/records/${id}/void`, payload: { reason: 'Prueba' } },
      { method: 'POST', url: `/api/admin/records/${id}/restore`, payload: { reason: 'Prueba' } },
      {
        method: 'PUT',
        url: `/api/admin/records/${id}/vote`,
        payload: { candidates: ['FA'], reason: 'Prueba', voteRevision: 1 },
      },
      { method: 'POST', url: '/api/admin/records/import?mode=importar', ...file },
      { method: 'GET', url: '/api/admin/records/export.csv?department=cabimas' },
    ] as const;
    for (const route of routes) {
      const as = async (cookie?: string) =>
        (
          await t.request({
            ...route,
            headers: { ...('headers' in route ? route.headers : {}), ...(cookie ? { cookie } : {}) },
          })
        ).statusCode;
      expect(await as(), `${route.method} ${route.url} as a visitor`).toBe(401);
      for (const person of ['validator', 'agenda', 'notas', 'outsider'] as const) {
        expect(await as(cookies[person]), `${route.method} ${route.url} as ${person}`).toBe(404);
      }
    }
    expect(await summary('cabimas')).toEqual({ total: 1, voted: 0, validated: 0 });
    expect(await listAudit(t.db.kysely, { action: 'records.import' })).toEqual([]);
  });
});

describe('records back office: by hand', () => {
  it('adds a record that validators see at once, and refuses the same person twice', async () => {
    const cookies = await setup();
    const res = await post(cookies.admin, '/api/admin/records', { department: 'cabimas', ...MARIA });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: 'Registro agregado.',
      record: {
        ...MARIA,
        telefono: maskPhone(MARIA.telefono),
        departmentSlug: 'cabimas',
        departmentTitle: 'Cabimas',
        status: 'pendiente',
        votes: [],
      },
    });
    expect(res.json().record.telefono).toMatch(/^•••• •• \d\d \d\d$/);
    expect((await validatorList(cookies.validator)).map((r) => r.nombre)).toEqual(['María Pérez']);
    expect(await summary('cabimas')).toEqual({ total: 1, voted: 0, validated: 0 });

    // The same person: other case and accents, the phone written another way.
    const again = await post(cookies.admin, '/api/admin/records', {
      department: 'cabimas',
      ...MARIA,
      nombre: '  MARIA   perez ',
      telefono: '+58 414 612 34 56',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      `Ya existe un registro de María Pérez con ese teléfono en este municipio (registro ${res.json().record.id}).`,
    );
    // The same person in another municipality is another record.
    expect((await post(cookies.admin, '/api/admin/records', { department: 'lagunillas', ...MARIA })).statusCode).toBe(
      201,
    );

    const audit = await listAudit(t.db.kysely, { action: 'record.create' });
    expect(audit).toHaveLength(2);
    expect(audit[1]).toMatchObject({ actor_email: PEOPLE.admin, department_slug: 'cabimas' });
    // Field names, never the values: the audit log keeps no name or phone (decision 081).
    expect(JSON.parse(audit[1]!.details!)).toEqual({ fields: ['comunidad', 'nombre', 'ubch', 'telefono'] });
    await expectCountersRight();
  });

  it('shows a record added, a record voided and an import to validators at once, right after they read the page', async () => {
    const cookies = await setup();
    const [voided] = await addRecords(t, 'cabimas', [{ nombre: 'Anulable' }]);
    const names = async () => (await validatorList(cookies.validator)).map((r) => r.nombre).sort();
    expect(await names()).toEqual(['Anulable']);

    expect((await post(cookies.admin, '/api/admin/records', { department: 'cabimas', ...MARIA })).statusCode).toBe(201);
    expect(await names()).toEqual(['Anulable', 'María Pérez']);

    expect((await post(cookies.admin, `/api/admin/records/${voided}/void`, { reason: 'Duplicado' })).statusCode).toBe(
      200,
    );
    expect(await names()).toEqual(['María Pérez']);

    const file = multipartFile(importCsv(2, { departments: ['cabimas'], start: 500 }));
    const imported = await t.request({
      method: 'POST',
      url: '/api/admin/records/import?mode=importar',
      headers: { cookie: cookies.admin, ...file.headers },
      payload: file.payload,
    });
    expect(imported.statusCode).toBe(201);
    expect(await names()).toHaveLength(3);
  });

  it('shows records another system brings or changes to validators at once, right after they read the page', async () => {
    const cookies = await setup();
    const [id] = await addRecords(t, 'cabimas', [{ nombre: 'Antes', telefono: '0414-1000001' }]);
    const names = async () => (await validatorList(cookies.validator)).map((r) => r.nombre).sort();
    expect(await names()).toEqual(['Antes']);

    const cabimas = await departmentId('cabimas');
    const records = createRecordsAdminService(t.db.kysely, t.config.now);
    const fields = { comunidad: 'Sector Norte', ubch: 'UBCH 1', telefono: '0414-1000002' };
    await records.insertFromSource([{ departmentId: cabimas, sourceId: 'recA', nombre: 'Desde Airtable', ...fields }]);
    expect(await names()).toEqual(['Antes', 'Desde Airtable']);

    const written = await records.updateFromSource([
      { id: id as number, departmentId: cabimas, fields: { departmentId: cabimas, nombre: 'Después', ...fields } },
    ]);
    expect(written).toEqual([true]);
    expect(await names()).toEqual(['Desde Airtable', 'Después']);
    await expectCountersRight();
  });

  it.each([
    ['nombre: blank', { nombre: ' ' }, 'Escribe el nombre.'],
    ['telefono: empty', { telefono: '' }, 'Escribe el teléfono.'],
    ['telefono: 0414-12', { telefono: '0414-12' }, 'El teléfono debe tener entre 7 y 15 dígitos.'],
    [
      'telefono: llamar luego',
      { telefono: 'llamar luego' },
      'El teléfono solo puede tener números, espacios, +, -, paréntesis y puntos.',
    ],
    ['ubch: 101 characters', { ubch: 'x'.repeat(101) }, 'No puede tener más de 100 caracteres.'],
    ['department: resultados', { department: 'resultados' }, 'El municipio o parroquia no existe.'],
    ['department: no-existe', { department: 'no-existe' }, 'El municipio o parroquia no existe.'],
    ['department: empty', { department: '' }, 'Elige el municipio o parroquia.'],
  ])('refuses %s with a Spanish message', async (_label, change, message) => {
    const cookies = await setup();
    const res = await post(cookies.admin, '/api/admin/records', { department: 'cabimas', ...MARIA, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await summary('cabimas')).toEqual({ total: 0, voted: 0, validated: 0 });
  });

  it('edits a record (searchable by its new name) and moves an unvoted one with its count', async () => {
    const cookies = await setup();
    const [id, other] = await addRecords(t, 'cabimas', [MARIA, { nombre: 'José Finol', telefono: '0424-1234567' }]);
    const edit = (body: object) =>
      t.request({ method: 'PUT', url: `/api/admin/records/${id}`, headers: { cookie: cookies.admin }, payload: body });

    const res = await edit({ department: 'cabimas', ...MARIA, nombre: 'María Fernanda Pérez', ubch: 'UBCH 9' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Registro actualizado.', record: { nombre: 'María Fernanda Pérez' } });
    const found = await t.request({
      url: '/api/validation/cabimas/records?q=fernanda',
      headers: { cookie: cookies.validator },
    });
    expect(found.json().items.map((r: { id: number }) => r.id)).toEqual([id]);

    // Becoming the same person as another record of the municipality is refused.
    const clash = await edit({ department: 'cabimas', ...MARIA, nombre: 'jose finol', telefono: '04241234567' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toContain(`(registro ${other})`);

    const moved = await edit({ department: 'lagunillas', ...MARIA });
    expect(moved.json().record).toMatchObject({ departmentSlug: 'lagunillas', departmentTitle: 'Lagunillas' });
    expect(await summary('cabimas')).toEqual({ total: 1, voted: 0, validated: 0 });
    expect(await summary('lagunillas')).toEqual({ total: 1, voted: 0, validated: 0 });
    await expectCountersRight();

    const audit = await listAudit(t.db.kysely, { action: 'record.update' });
    // Field names only: no name or phone in the audit log (decision 081).
    expect(JSON.parse(audit[0]!.details!)).toMatchObject({ department: { from: 'cabimas', to: 'lagunillas' } });
    for (const row of await listAudit(t.db.kysely)) {
      expect(row.details ?? '').not.toContain('María');
      expect(row.details ?? '').not.toContain(MARIA.telefono);
    }
    const missing = await t.request({
      method: 'PUT',
      url: '/api/admin/records/999999',
      headers: { cookie: cookies.admin },
      payload: { department: 'cabimas', ...MARIA },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('El registro no existe.');
  });

  it('keeps a voted record in its municipality, and refuses to edit a voided one', async () => {
    const cookies = await setup();
    const [voted, voided] = await addRecords(t, 'cabimas', 2);
    expect(
      (await post(cookies.validator, `/api/validation/cabimas/records/${voted}/vote`, { candidates: ['FA'] }))
        .statusCode,
    ).toBe(201);
    const move = await t.request({
      method: 'PUT',
      url: `/api/admin/records/${voted}`,
      headers: { cookie: cookies.admin },
      payload: { department: 'lagunillas', ...MARIA },
    });
    expect(move.statusCode).toBe(409);
    expect(move.json().message).toMatch(/ya tiene voto: no puede cambiar de municipio/);
    // Its fields may still be corrected.
    const fix = await t.request({
      method: 'PUT',
      url: `/api/admin/records/${voted}`,
      headers: { cookie: cookies.admin },
      payload: { department: 'cabimas', ...MARIA },
    });
    expect(fix.statusCode).toBe(200);
    expect(fix.json().record).toMatchObject({ votes: ['FA'], nombre: 'María Pérez' });

    await post(cookies.admin, `/api/admin/records/${voided}/void`, { reason: 'Duplicado' });
    const edit = await t.request({
      method: 'PUT',
      url: `/api/admin/records/${voided}`,
      headers: { cookie: cookies.admin },
      payload: { department: 'cabimas', ...MARIA, telefono: '0414-0000000' },
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().message).toBe('Este registro está anulado: ya no se puede cambiar.');
    await expectCountersRight();
  });
});

describe('records back office: voiding', () => {
  it('takes a voted and validated record off the lists and the progress; results keep its vote if asked', async () => {
    const cookies = await setup();
    const [done, plain] = await addRecords(t, 'cabimas', 3);
    expect(
      (await post(cookies.validator, `/api/validation/cabimas/records/${done}/vote`, { candidates: ['LC'] }))
        .statusCode,
    ).toBe(201);
    for (const kind of ['gobernador', 'an', 'clez'] as const) await addStoredPhoto(t, done as number, kind);
    expect(await summary('cabimas')).toEqual({ total: 3, voted: 1, validated: 1 });
    const before = await checkTotals(t.db.kysely);

    const res = await post(cookies.admin, `/api/admin/records/${done}/void`, {
      reason: 'Persona repetida',
      voteCounts: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Registro anulado: ya no aparece en las listas.',
      record: { id: done, status: 'anulado', votes: ['LC'], photos: 3, validated: true },
    });
    expect(await summary('cabimas')).toEqual({ total: 2, voted: 0, validated: 0 });
    const listed = await t.request({
      url: '/api/validation/cabimas/records?validated=1',
      headers: { cookie: cookies.validator },
    });
    expect(listed.json().items.map((r: { id: number }) => r.id)).not.toContain(done);
    // Voting on it is no longer possible either, and the validator is told why.
    const refused = await post(cookies.validator, `/api/validation/cabimas/records/${done}/vote`, { candidates: [] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/^La coordinación anuló este trámite el /);
    const after = await checkTotals(t.db.kysely);
    expect(after.differences).toEqual([]);
    expect(after.votes).toEqual(before.votes);

    const again = await post(cookies.admin, `/api/admin/records/${done}/void`, { reason: 'Otra vez' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Este registro ya estaba anulado.');
    expect((await post(cookies.admin, '/api/admin/records/999999/void', { reason: 'x' })).statusCode).toBe(404);

    const audit = await listAudit(t.db.kysely, { action: 'record.void' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_email: PEOPLE.admin, department_slug: 'cabimas', target: `record:${done}` });
    expect(JSON.parse(audit[0]!.details!)).toMatchObject({ voted: true, reason: 'Persona repetida' });

    // The back office still finds it, under its status.
    expect((await list(cookies.admin, 'department=cabimas')).items.map((r: { id: number }) => r.id)).not.toContain(
      done,
    );
    expect(
      (await list(cookies.admin, 'department=cabimas&status=anulado')).items.map((r: { id: number }) => r.id),
    ).toEqual([done]);
    expect((await list(cookies.admin, 'department=cabimas&status=todos')).items).toHaveLength(3);
    expect(plain).toBeDefined();
  });
});

describe('records back office: listing', () => {
  it('lists by pages with a search, and the municipalities with their counts', async () => {
    const cookies = await setup();
    await addRecords(t, 'cabimas', 120);
    await addRecords(t, 'lagunillas', [MARIA]);
    const first = await list(cookies.admin, 'department=cabimas&limit=50');
    expect(first.items).toHaveLength(50);
    const second = await list(cookies.admin, `department=cabimas&limit=50&after=${first.nextCursor}`);
    const third = await list(cookies.admin, `department=cabimas&limit=50&after=${second.nextCursor}`);
    expect(third.items).toHaveLength(20);
    expect(third.nextCursor).toBeNull();
    expect((await list(cookies.admin, 'department=lagunillas&q=maria perez')).items).toHaveLength(1);
    expect((await list(cookies.admin, 'department=lagunillas&q=6123456')).items).toHaveLength(1);
    const bad = await t.request({ url: '/api/admin/records?department=nada', headers: { cookie: cookies.admin } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('El municipio o parroquia no existe.');

    const departments = (
      await t.request({ url: '/api/admin/records/departments', headers: { cookie: cookies.admin } })
    ).json();
    expect(departments.items.find((d: { slug: string }) => d.slug === 'cabimas')).toEqual({
      slug: 'cabimas',
      title: 'Cabimas',
      total: 120,
      voted: 0,
      validated: 0,
      voided: 0,
    });
    expect(departments.items.some((d: { slug: string }) => d.slug === 'resultados')).toBe(false);
  });

  it('searches every municipality and parish without one chosen: accents and case folded, by pages, each hit with its own', async () => {
    const cookies = await setup();
    await addRecords(t, 'cabimas', [
      { ...MARIA, nombre: 'MARÍA PÉREZ GONZÁLEZ' },
      { nombre: 'Luis Finol', telefono: '0424-5550001', comunidad: 'Barrio Ziruma', ubch: 'UBCH 110100099' },
    ]);
    await addRecords(t, 'lagunillas', [MARIA, { nombre: 'Maria Perez', telefono: '0416-7770000', status: 'anulado' }]);
    await addRecords(t, 'bolivar', 30);
    const hits = async (query: string) =>
      (await list(cookies.admin, query)).items.map((r: { nombre: string; departmentTitle: string }) => [
        r.nombre,
        r.departmentTitle,
      ]);

    expect(await hits('q=maria perez')).toEqual([
      ['MARÍA PÉREZ GONZÁLEZ', 'Cabimas'],
      ['María Pérez', 'Lagunillas'],
    ]);
    expect(await hits('q=maria perez&status=todos')).toEqual([
      ['MARÍA PÉREZ GONZÁLEZ', 'Cabimas'],
      ['María Pérez', 'Lagunillas'],
      ['Maria Perez', 'Lagunillas'],
    ]);
    expect(await hits('q=Maria Perez&status=anulado')).toEqual([['Maria Perez', 'Lagunillas']]);
    // Phone as typed or as digits, community and UBCH.
    expect(await hits('q=0424 555 0001')).toEqual([['Luis Finol', 'Cabimas']]);
    expect(await hits('q=ziruma')).toEqual([['Luis Finol', 'Cabimas']]);
    expect(await hits('q=110100099')).toEqual([['Luis Finol', 'Cabimas']]);
    expect(await hits('q=nadie se llama asi')).toEqual([]);
    // A LIKE wildcard typed is looked for as itself.
    expect(await hits('q=%')).toEqual([]);

    // Without a search: every municipality's records not voided (34 less one), by pages that never
    // repeat or skip one.
    const seen: number[] = [];
    let after: number | null | undefined;
    do {
      const page = await list(cookies.admin, `limit=7${after ? `&after=${after}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(7);
      seen.push(...page.items.map((r: { id: number }) => r.id));
      after = page.nextCursor;
    } while (after);
    expect(seen).toHaveLength(33);
    expect(new Set(seen).size).toBe(33);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const first = (await list(cookies.admin, 'q=persona&limit=10')).items;
    expect(first).toHaveLength(10);
    expect(first.every((r: { departmentSlug: string }) => r.departmentSlug === 'bolivar')).toBe(true);
  });
  it('finds a record by its SMS code however it is typed, in its municipality or all of them, and shows the code', async () => {
    const cookies = await setup();
    const [luis] = await addRecords(t, 'cabimas', [{ nombre: 'Luis Finol', telefono: '0424-5550001' }]);
    await addRecords(t, 'lagunillas', 40);
    const code = recordCodeFor(luis as number);
    const found = async (query: string) =>
      (await list(cookies.admin, query)).items.map((r: { id: number; code: string }) => [r.id, r.code]);

    expect(await found(`q=${code}`)).toEqual([[luis, code]]);
    // Lower case, a dash in the middle, O typed for 0 and I for 1.
    const typed = `${code.slice(0, 3)}-${code.slice(3)}`.replace(/0/g, 'O').replace(/1/g, 'I').toLowerCase();
    expect(await found(`q=${encodeURIComponent(typed)}`)).toEqual([[luis, code]]);
    expect(await found(`department=cabimas&q=${code}`)).toEqual([[luis, code]]);
    expect(await found(`department=lagunillas&q=${code}`)).toEqual([]);
    // One character wrong is no record's code: nothing found, not a neighbour.
    const wrong = code.slice(0, 2) + (code[2] === 'A' ? 'B' : 'A') + code.slice(3);
    expect(await found(`q=${wrong}`)).toEqual([]);
    // Every record shows its code.
    const page = (await list(cookies.admin, 'department=lagunillas&limit=3')).items;
    expect(page.map((r: { id: number; code: string }) => r.code)).toEqual(
      page.map((r: { id: number }) => recordCodeFor(r.id)),
    );
  });
});
