import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';

let t: TestApp;
afterEach(async () => t?.close());

const ORIGINAL = {
  campaignName: 'Comando Pruebas',
  leaderName: 'Gabriela Urdaneta',
  resultsDenominator: 5373,
  logoutRoute: '/',
  photoMaxMb: 20,
  photoSendOriginals: false,
  requireSecondFactorAdmins: false,
};

/** The database itself refuses to store the photo limit (as a full disk or a lost connection would). */
async function refusePhotoLimit(): Promise<void> {
  const db = t.db.kysely;
  if (t.db.dialect === 'sqlite') {
    for (const event of ['insert', 'update']) {
      await sql
        .raw(
          `create trigger prueba_falla_${event} before ${event} on settings when new.key = 'photo_max_bytes' ` +
            `begin select raise(abort, 'prueba: no se guarda'); end`,
        )
        .execute(db);
    }
  } else {
    await sql
      .raw(
        `create function prueba_falla() returns trigger language plpgsql as $$ begin ` +
          `if new.key = 'photo_max_bytes' then raise exception 'prueba: no se guarda'; end if; return new; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        'create trigger prueba_falla before insert or update on settings for each row execute function prueba_falla()',
      )
      .execute(db);
  }
}

async function allowPhotoLimit(): Promise<void> {
  const db = t.db.kysely;
  if (t.db.dialect === 'sqlite') {
    for (const event of ['insert', 'update']) await sql.raw(`drop trigger prueba_falla_${event}`).execute(db);
  } else {
    await sql.raw('drop trigger prueba_falla on settings').execute(db);
  }
}

describe('saving the settings', () => {
  it('saves every changed value or none: a failure half-way leaves no value changed and no audit row', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
    const cookie = await sessionCookie(t, 'jefa@example.org');
    const put = (payload: object) =>
      t.request({ method: 'PUT', url: '/api/admin/settings', headers: { cookie }, payload });
    const read = async () => (await t.request({ url: '/api/admin/settings', headers: { cookie } })).json();
    // The home page's kept answer, read before the change.
    expect((await t.request({ url: '/api/site' })).json().campaignName).toBe('Comando Pruebas');

    await refusePhotoLimit();
    // The campaign's name is stored before the photo limit, which the database refuses.
    const failed = await put({ ...ORIGINAL, campaignName: 'Comando Lago', photoMaxMb: 8 });
    expect(failed.statusCode).toBe(500);

    expect(await read()).toEqual(ORIGINAL);
    expect((await t.request({ url: '/api/site' })).json().campaignName).toBe('Comando Pruebas');
    expect(await listAudit(t.db.kysely, { action: 'setting.update' })).toEqual([]);

    await allowPhotoLimit();
    const saved = await put({ ...ORIGINAL, campaignName: 'Comando Lago', photoMaxMb: 8 });
    expect(saved.statusCode).toBe(200);
    expect(await read()).toEqual({ ...ORIGINAL, campaignName: 'Comando Lago', photoMaxMb: 8 });
    expect((await t.request({ url: '/api/site' })).json().campaignName).toBe('Comando Lago');
    const rows = await listAudit(t.db.kysely, { action: 'setting.update' });
    expect(rows.map((r) => r.target).reverse()).toEqual(['campaign_name', 'photo_max_bytes']);
  });
});
