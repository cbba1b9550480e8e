import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';

let t: TestApp;
let admin: string;

const VALID = {
  campaignName: 'Comando Lago',
  leaderName: 'Marta Fuenmayor',
  resultsDenominator: 6000,
  logoutRoute: '/agenda',
  photoMaxMb: 8,
  photoSendOriginals: true,
  requireSecondFactorAdmins: false,
};

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
  admin = await sessionCookie(t, 'jefa@example.org');
});
afterAll(async () => t?.close());

const put = (payload: object) =>
  t.request({ method: 'PUT', url: '/api/admin/settings', headers: { cookie: admin }, payload });

describe('admin settings', () => {
  it('reads the current values, with the photo limit in megabytes', async () => {
    const res = await t.request({ url: '/api/admin/settings', headers: { cookie: admin } });
    expect(res.json()).toEqual({
      campaignName: 'Comando Pruebas',
      leaderName: 'Gabriela Urdaneta',
      resultsDenominator: 5373,
      logoutRoute: '/',
      photoMaxMb: 20,
      photoSendOriginals: false,
      requireSecondFactorAdmins: false,
    });
  });

  it('saves them; the site, the session, the results and the photo limit follow at once; each change audited', async () => {
    const res = await put(VALID);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(VALID);
    const site = (await t.request({ url: '/api/site' })).json();
    expect(site).toMatchObject({ campaignName: 'Comando Lago', leaderName: 'Marta Fuenmayor' });
    expect((await t.request({ url: '/api/auth/session' })).json().logoutRoute).toBe('/agenda');
    expect((await t.request({ url: '/api/results', headers: { cookie: admin } })).json().denominator).toBe(6000);
    const stored = await t.db.kysely
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'photo_max_bytes')
      .executeTakeFirstOrThrow();
    expect(stored.value).toBe(String(8 * 1024 * 1024));
    // Phones learn it before preparing the next photo.
    expect((await t.request({ url: '/api/photo-settings', headers: { cookie: admin } })).json()).toEqual({
      sendOriginals: true,
    });

    const rows = (await listAudit(t.db.kysely, { action: 'setting.update' })).reverse();
    expect(rows.map((r) => [r.target, JSON.parse(r.details ?? '{}'), r.actor_email, r.ip])).toEqual([
      ['campaign_name', { from: 'Comando Pruebas', to: 'Comando Lago' }, 'jefa@example.org', '127.0.0.1'],
      ['leader_name', { from: 'Gabriela Urdaneta', to: 'Marta Fuenmayor' }, 'jefa@example.org', '127.0.0.1'],
      ['results_denominator', { from: 5373, to: 6000 }, 'jefa@example.org', '127.0.0.1'],
      ['logout_route', { from: '/', to: '/agenda' }, 'jefa@example.org', '127.0.0.1'],
      ['photo_max_bytes', { from: 20, to: 8 }, 'jefa@example.org', '127.0.0.1'],
      ['photo_send_originals', { from: false, to: true }, 'jefa@example.org', '127.0.0.1'],
    ]);

    // Saving the same values again writes nothing.
    await put(VALID);
    expect(await listAudit(t.db.kysely, { action: 'setting.update' })).toHaveLength(6);
  });

  it('refuses bad values with a Spanish message, and keeps the old ones', async () => {
    const cases: [Partial<typeof VALID> | Record<string, unknown>, string][] = [
      [{ campaignName: '  ' }, 'Indica el nombre de la campaña.'],
      [{ leaderName: '' }, 'Indica el nombre del líder.'],
      [{ resultsDenominator: 0 }, 'El denominador debe ser un número entero positivo.'],
      [{ resultsDenominator: 12.5 }, 'El denominador debe ser un número entero positivo.'],
      [{ resultsDenominator: '5373' }, 'El denominador debe ser un número entero positivo.'],
      [
        { logoutRoute: 'agenda' },
        'La ruta de salida debe ser una ruta de este sitio que empiece por "/", por ejemplo /agenda.',
      ],
      [
        { logoutRoute: '//evil.example/' },
        'La ruta de salida debe ser una ruta de este sitio que empiece por "/", por ejemplo /agenda.',
      ],
      [
        { logoutRoute: 'https://evil.example/' },
        'La ruta de salida debe ser una ruta de este sitio que empiece por "/", por ejemplo /agenda.',
      ],
      [
        { logoutRoute: '/\\evil.example' },
        'La ruta de salida debe ser una ruta de este sitio que empiece por "/", por ejemplo /agenda.',
      ],
      [
        { logoutRoute: '/api/auth/logout' },
        'La ruta de salida debe ser una ruta de este sitio que empiece por "/", por ejemplo /agenda.',
      ],
      [{ photoMaxMb: 0 }, 'El tamaño máximo de foto debe ser un número entero entre 1 y 50 MB.'],
      [{ photoMaxMb: 51 }, 'El tamaño máximo de foto debe ser un número entero entre 1 y 50 MB.'],
    ];
    for (const [change, message] of cases) {
      const res = await put({ ...VALID, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().message, JSON.stringify(change)).toBe(message);
    }
    expect((await t.request({ url: '/api/admin/settings', headers: { cookie: admin } })).json()).toEqual(VALID);
  });
});
