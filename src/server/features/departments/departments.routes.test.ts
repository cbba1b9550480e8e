import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { addStoredPhoto } from '#server/testing/photos';
import { addRecords } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';

let t: TestApp;
let admin: string;
let validator: string;

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
  await createUser(t.db, { email: 'val@example.org', role: 'staff', departments: ['cabimas'] });
  await createUser(t.db, { email: 'apagada@example.org', role: 'staff', departments: ['cabimas'] });
  await t.db.kysely.updateTable('users').set({ disabled: 1 }).where('email', '=', 'apagada@example.org').execute();
  await t.request({
    method: 'POST',
    url: '/api/access/departments/cabimas/members',
    headers: { cookie: await sessionCookie(t, 'jefa@example.org') },
    payload: { email: 'sin.cuenta@example.org' },
  });
  admin = await sessionCookie(t, 'jefa@example.org');
  validator = await sessionCookie(t, 'val@example.org');

  // Cabimas: 4 records; two voted, one of them with its three photos (validated).
  const ids = await addRecords(t, 'cabimas', 4);
  for (const id of ids.slice(0, 2)) {
    const res = await t.request({
      method: 'POST',
      url: `/api/validation/cabimas/records/${id}/vote`,
      headers: { cookie: validator },
      payload: { candidates: ['FA'] },
    });
    expect(res.statusCode).toBe(201);
  }
  for (const kind of ['gobernador', 'an', 'clez'] as const) await addStoredPhoto(t, ids[0] as number, kind);
});
afterAll(async () => t?.close());

describe('GET /api/admin/departments', () => {
  it('lists every department in menu order with its list size and progress from the records', async () => {
    const res = await t.request({ url: '/api/admin/departments', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    const items = res.json().items;
    expect(items).toHaveLength(40);
    expect(items.slice(0, 3).map((d: { path: string }) => d.path)).toEqual(['/resultados', '/notas', '/agenda']);
    expect(items.find((d: { slug: string }) => d.slug === 'cabimas')).toEqual({
      slug: 'cabimas',
      title: 'Cabimas',
      kind: 'municipality',
      path: '/validation/cabimas',
      members: 3,
      total: 4,
      voted: 2,
      validated: 1,
    });
    expect(items.find((d: { slug: string }) => d.slug === 'sucre')).toMatchObject({
      members: 0,
      total: 0,
      validated: 0,
    });
  });

  it('is for admins only', async () => {
    expect((await t.request({ url: '/api/admin/departments' })).statusCode).toBe(401);
    expect((await t.request({ url: '/api/admin/departments', headers: { cookie: validator } })).statusCode).toBe(404);
  });
});

describe('GET /api/admin/departments/:slug', () => {
  it('shows the allow-list with the account behind each e-mail', async () => {
    const res = await t.request({ url: '/api/admin/departments/cabimas', headers: { cookie: admin } });
    expect(res.json()).toMatchObject({ slug: 'cabimas', members: 3, total: 4, validated: 1 });
    expect(res.json().emails).toEqual([
      { email: 'apagada@example.org', account: 'disabled', role: 'staff' },
      { email: 'sin.cuenta@example.org', account: null, role: null },
      { email: 'val@example.org', account: 'active', role: 'staff' },
    ]);
    const unknown = await t.request({ url: '/api/admin/departments/no-existe', headers: { cookie: admin } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('El departamento no existe.');
  });
});

describe('PATCH /api/admin/departments/:slug', () => {
  it('renames a department (audited); the menu shows the new title at once', async () => {
    const res = await t.request({
      method: 'PATCH',
      url: '/api/admin/departments/cabimas',
      headers: { cookie: admin },
      payload: { title: '  Cabimas (Costa Oriental)  ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().title).toBe('Cabimas (Costa Oriental)');
    const menu = (await t.request({ url: '/api/auth/session', headers: { cookie: validator } })).json().menu;
    expect(menu[0]).toEqual({ title: 'Cabimas (Costa Oriental)', path: '/validation/cabimas' });
    const [audit] = await listAudit(t.db.kysely, { action: 'department.update', limit: 1 });
    expect(audit).toMatchObject({ actor_email: 'jefa@example.org', department_slug: 'cabimas', ip: '127.0.0.1' });
    expect(JSON.parse(audit?.details ?? '{}')).toEqual({ title: { from: 'Cabimas', to: 'Cabimas (Costa Oriental)' } });

    // The same title again changes nothing and writes nothing.
    await t.request({
      method: 'PATCH',
      url: '/api/admin/departments/cabimas',
      headers: { cookie: admin },
      payload: { title: 'Cabimas (Costa Oriental)' },
    });
    expect(await listAudit(t.db.kysely, { action: 'department.update' })).toHaveLength(1);
  });

  it('refuses an empty or too long title in Spanish', async () => {
    for (const [title, message] of [
      ['   ', 'Indica el título.'],
      ['x'.repeat(201), 'El título no puede tener más de 200 caracteres.'],
    ]) {
      const res = await t.request({
        method: 'PATCH',
        url: '/api/admin/departments/sucre',
        headers: { cookie: admin },
        payload: { title },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });
});

describe('POST /api/admin/departments', () => {
  const create = (payload: object, cookie = admin) =>
    t.request({ method: 'POST', url: '/api/admin/departments', headers: { cookie }, payload });
  const slugs = async () =>
    (await t.request({ url: '/api/admin/departments', headers: { cookie: admin } }))
      .json()
      .items.map((d: { slug: string }) => d.slug);

  it('adds a municipality at the end of the menu (audited); lists, menus and results show it at once', async () => {
    // Read first, so that anything kept from these answers would have to be forgotten.
    const breakdownBefore = (await t.request({ url: '/api/results/breakdown', headers: { cookie: admin } })).json();
    expect(breakdownBefore.rows.map((r: { slug: string }) => r.slug)).not.toContain('valmore-rodriguez');
    expect((await t.request({ url: '/api/auth/session', headers: { cookie: validator } })).statusCode).toBe(200);

    const res = await create({ title: '  Valmore Rodríguez ', slug: 'valmore-rodriguez', kind: 'municipality' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      slug: 'valmore-rodriguez',
      title: 'Valmore Rodríguez',
      kind: 'municipality',
      path: '/validation/valmore-rodriguez',
      members: 0,
      total: 0,
      voted: 0,
      validated: 0,
      emails: [],
    });
    expect((await slugs()).at(-1)).toBe('valmore-rodriguez');
    const [audit] = await listAudit(t.db.kysely, { action: 'department.create', limit: 1 });
    expect(audit).toMatchObject({
      actor_email: 'jefa@example.org',
      department_slug: 'valmore-rodriguez',
      target: 'valmore-rodriguez',
      ip: '127.0.0.1',
    });
    expect(JSON.parse(audit?.details ?? '{}')).toEqual({ title: 'Valmore Rodríguez', kind: 'municipality' });

    const breakdown = (await t.request({ url: '/api/results/breakdown', headers: { cookie: admin } })).json();
    expect(breakdown.rows.map((r: { slug: string }) => r.slug)).toContain('valmore-rodriguez');

    // Given to a validator, it is in their menu on their next request.
    const grant = await t.request({
      method: 'POST',
      url: '/api/access/departments/valmore-rodriguez/members',
      headers: { cookie: admin },
      payload: { email: 'val@example.org' },
    });
    expect(grant.statusCode).toBeLessThan(300);
    const menu = (await t.request({ url: '/api/auth/session', headers: { cookie: validator } })).json().menu;
    expect(menu).toContainEqual({ title: 'Valmore Rodríguez', path: '/validation/valmore-rodriguez' });
  });

  it('refuses a slug that exists, one of the wrong shape and a page the app does not have, writing nothing', async () => {
    const before = await slugs();
    const audits = (await listAudit(t.db.kysely, { action: 'department.create' })).length;
    for (const [payload, status, message] of [
      [
        { title: 'Otra Cabimas', slug: 'cabimas' },
        409,
        'Ya existe un departamento con el identificador cabimas: Cabimas (Costa Oriental).',
      ],
      [
        { title: 'Agenda 2', slug: 'agenda', kind: 'page' },
        409,
        'Ya existe un departamento con el identificador agenda: Agenda.',
      ],
      [
        { title: 'Tilde', slug: 'valmore-rodríguez' },
        400,
        'El identificador solo lleva minúsculas sin tildes, números y guiones entre palabras, por ejemplo valmore-rodriguez.',
      ],
      [
        { title: 'Mayúsculas', slug: 'Valmore' },
        400,
        'El identificador solo lleva minúsculas sin tildes, números y guiones entre palabras, por ejemplo valmore-rodriguez.',
      ],
      [
        { title: 'Guiones', slug: '-valmore--rodriguez-' },
        400,
        'El identificador solo lleva minúsculas sin tildes, números y guiones entre palabras, por ejemplo valmore-rodriguez.',
      ],
      [{ title: 'Sin identificador', slug: '  ' }, 400, 'Indica el identificador de la dirección.'],
      [{ title: '', slug: 'sin-titulo' }, 400, 'Indica el título.'],
      [{ title: 'Largo', slug: 'x'.repeat(101) }, 400, 'El identificador no puede tener más de 100 caracteres.'],
      [
        { title: 'Otra página', slug: 'campo', kind: 'page' },
        400,
        'Una página solo puede ser una de las que la aplicación tiene (resultados, notas, agenda), y todas existen ya. Lo nuevo es un municipio o parroquia.',
      ],
      [{ title: 'Rara', slug: 'rara', kind: 'region' }, 400, undefined],
    ] as const) {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      if (message) expect(res.json().message).toBe(message);
    }
    expect(await slugs()).toEqual(before);
    expect(await listAudit(t.db.kysely, { action: 'department.create' })).toHaveLength(audits);
  });

  it('is for admins only', async () => {
    expect((await create({ title: 'Nueva', slug: 'nueva' }, validator)).statusCode).toBe(404);
    expect(
      (await t.request({ method: 'POST', url: '/api/admin/departments', payload: { title: 'N', slug: 'n' } }))
        .statusCode,
    ).toBe(401);
    expect(await slugs()).not.toContain('nueva');
  });

  it('adds one department when the same one is sent twice at once: the other is told it exists', async () => {
    const answers = await Promise.all([
      create({ title: 'Misión Sucre', slug: 'mision-sucre' }),
      create({ title: 'Misión Sucre', slug: 'mision-sucre' }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((r) => r.statusCode === 409)?.json().message).toBe(
      'Ya existe un departamento con el identificador mision-sucre: Misión Sucre.',
    );
    expect((await slugs()).filter((s: string) => s === 'mision-sucre')).toHaveLength(1);
    const created = await listAudit(t.db.kysely, { action: 'department.create' });
    expect(created.filter((a) => a.target === 'mision-sucre')).toHaveLength(1);
  });
});
