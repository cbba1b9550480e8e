import { afterEach, describe, expect, it } from 'vitest';
import { requireDepartmentAccess } from '#server/platform/access/access.service';
import { listAudit } from '#server/platform/audit/audit.repository';
import { HttpError } from '#server/platform/http/errors';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';

let t: TestApp;
afterEach(async () => t?.close());

const statusOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 200;
  } catch (error) {
    return error instanceof HttpError ? error.statusCode : 500;
  }
};

describe('requireDepartmentAccess', () => {
  it('answers 401 to visitors and the same 404 for unknown and forbidden departments', async () => {
    t = await createTestApp();
    const ana = await createUser(t.db, { email: 'ana@example.org', role: 'staff', departments: ['cabimas', 'notas'] });
    const jefa = await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
    const db = t.db.kysely;
    expect(await statusOf(requireDepartmentAccess(db, null, 'cabimas'))).toBe(401);
    expect(await requireDepartmentAccess(db, ana, 'cabimas')).toMatchObject({
      slug: 'cabimas',
      title: 'Cabimas',
      kind: 'municipality',
    });
    expect(await requireDepartmentAccess(db, ana, 'notas')).toMatchObject({ kind: 'page' });
    expect(await statusOf(requireDepartmentAccess(db, ana, 'lagunillas'))).toBe(404);
    expect(await statusOf(requireDepartmentAccess(db, ana, 'resultados'))).toBe(404);
    expect(await statusOf(requireDepartmentAccess(db, ana, 'no-existe'))).toBe(404);
    // Admins are the base group of the staff pages, not of the municipalities.
    for (const slug of ['resultados', 'notas', 'agenda']) {
      expect(await requireDepartmentAccess(db, jefa, slug)).toMatchObject({ slug });
    }
    expect(await statusOf(requireDepartmentAccess(db, jefa, 'cabimas'))).toBe(404);
  });
});

describe('GET /api/access/departments/:slug', () => {
  it('tells a validator the title and route of their municipality', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff', departments: ['la-canada-de-urdaneta'] });
    const cookie = await sessionCookie(t, 'ana@example.org');
    const res = await t.request({ url: '/api/access/departments/la-canada-de-urdaneta', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      slug: 'la-canada-de-urdaneta',
      title: 'La Cañada de Urdaneta',
      kind: 'municipality',
      path: '/validation/la-canada-de-urdaneta',
    });
  });
});

describe('allow-lists managed by admins', () => {
  it('adds and removes e-mails; the change applies at the next request, without signing in again', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
    await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    const admin = await sessionCookie(t, 'jefa@example.org');
    const ana = await sessionCookie(t, 'ana@example.org');
    const open = () => t.request({ url: '/api/access/departments/sucre', headers: { cookie: ana } });
    expect((await open()).statusCode).toBe(404);

    const added = await t.request({
      method: 'POST',
      url: '/api/access/departments/sucre/members',
      headers: { cookie: admin },
      payload: { email: ' ANA@Example.org ' },
    });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({ slug: 'sucre', emails: ['ana@example.org'] });
    expect((await open()).statusCode).toBe(200);
    const menu = (await t.request({ url: '/api/auth/session', headers: { cookie: ana } })).json().menu;
    expect(menu).toEqual([{ title: 'Sucre', path: '/validation/sucre' }]);

    const removed = await t.request({
      method: 'DELETE',
      url: '/api/access/departments/sucre/members/Ana%40example.org',
      headers: { cookie: admin },
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().emails).toEqual([]);
    expect((await open()).statusCode).toBe(404);

    const rows = (await listAudit(t.db.kysely)).filter((r) => r.action.startsWith('access.')).reverse();
    expect(rows.map((r) => [r.action, r.actor_email, r.department_slug, r.target, r.ip])).toEqual([
      ['access.grant', 'jefa@example.org', 'sucre', 'ana@example.org', '127.0.0.1'],
      ['access.revoke', 'jefa@example.org', 'sucre', 'ana@example.org', '127.0.0.1'],
    ]);
  });

  it('lists every department with its e-mails, and refuses bad input in Spanish', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
    await createUser(t.db, { email: 'ana@example.org', role: 'staff', departments: ['agenda', 'cabimas'] });
    const admin = await sessionCookie(t, 'jefa@example.org');
    const list = (await t.request({ url: '/api/access/departments', headers: { cookie: admin } })).json();
    expect(list.departments).toHaveLength(40);
    expect(list.departments.slice(0, 3).map((d: { path: string }) => d.path)).toEqual([
      '/resultados',
      '/notas',
      '/agenda',
    ]);
    expect(list.departments.find((d: { slug: string }) => d.slug === 'agenda').emails).toEqual(['ana@example.org']);

    const bad = await t.request({
      method: 'POST',
      url: '/api/access/departments/sucre/members',
      headers: { cookie: admin },
      payload: { email: 'no-es-correo' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('El formato del email es inválido.');
    const unknown = await t.request({
      method: 'POST',
      url: '/api/access/departments/no-existe/members',
      headers: { cookie: admin },
      payload: { email: 'ana@example.org' },
    });
    expect(unknown.statusCode).toBe(404);
  });
});
