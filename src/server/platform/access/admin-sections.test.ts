import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '#server/platform/http/errors';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { requireAdminSection } from './access.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const statusOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 200;
  } catch (error) {
    return error instanceof HttpError ? error.statusCode : 500;
  }
};

describe('back-office sections', () => {
  it('offers Administración to admins with every section, to the Agenda and Notas lists with their own', async () => {
    await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
    await createUser(t.db, { email: 'agenda@example.org', role: 'staff', departments: ['agenda'] });
    await createUser(t.db, { email: 'val@example.org', role: 'staff', departments: ['cabimas', 'resultados'] });
    const menuOf = async (email: string) =>
      (await t.request({ url: '/api/auth/session', headers: { cookie: await sessionCookie(t, email) } })).json().menu;
    expect((await menuOf('jefa@example.org')).at(-1)).toEqual({
      title: 'Administración',
      path: '/admin',
      sections: [
        'personas',
        'departamentos',
        'candidatos',
        'agenda',
        'notas',
        'registros',
        'ajustes',
        'auditoria',
        'jornada',
        'mensajes',
      ],
    });
    expect(await menuOf('agenda@example.org')).toEqual([
      { title: 'Agenda', path: '/agenda' },
      { title: 'Administración', path: '/admin', sections: ['agenda'] },
    ]);
    // On other lists (even Resultados): no back office.
    expect((await menuOf('val@example.org')).map((m: { path: string }) => m.path)).toEqual([
      '/resultados',
      '/validation/cabimas',
    ]);
  });

  it('lets the server check a section: admins all, the Agenda list agenda only, visitors 401, others 404', async () => {
    const db = t.db.kysely;
    const admin = { id: 1, email: 'jefa@example.org', role: 'admin' as const };
    const agenda = { id: 2, email: 'agenda@example.org', role: 'staff' as const };
    const val = { id: 3, email: 'val@example.org', role: 'staff' as const };
    expect(await statusOf(requireAdminSection(db, null, 'agenda'))).toBe(401);
    for (const section of ['personas', 'agenda', 'notas', 'auditoria'] as const) {
      expect(await statusOf(requireAdminSection(db, admin, section))).toBe(200);
    }
    expect(await statusOf(requireAdminSection(db, agenda, 'agenda'))).toBe(200);
    expect(await statusOf(requireAdminSection(db, agenda, 'notas'))).toBe(404);
    expect(await statusOf(requireAdminSection(db, agenda, 'personas'))).toBe(404);
    expect(await statusOf(requireAdminSection(db, val, 'agenda'))).toBe(404);
  });
});
