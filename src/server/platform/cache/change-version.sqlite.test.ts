import { afterEach, describe, expect, it } from 'vitest';
import { grantDepartment, revokeDepartment } from '#server/platform/access/access.service';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { type Db, openDatabase } from '#server/platform/db/database';
import { createAuthRepository } from '#server/platform/session/session.repository';
import { createUser, loginAs } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { accessVersionOf, changesAccess, createAccessCache, dataVersionOf } from './change-version';

let t: TestApp;
let other: Db | undefined;
afterEach(async () => {
  await other?.close();
  other = undefined;
  await t?.close();
});

const actor = { email: 'pruebas', ip: null };
// Another process's commit is noticed within a millisecond (change-version.ts).
const aMomentLater = () => new Promise((resolve) => setTimeout(resolve, 3));

describe('changesAccess', () => {
  it('flags every write that can end a session or change who may open what, and only those', () => {
    for (const source of [
      'insert into "users" ("email", "role") values (?, ?) returning "id"',
      'update "users" set "disabled" = ? where "id" = ?',
      'delete from "users" where "id" = ?',
      'insert into "department_members" ("department_id", "email") values (?, ?) on conflict do nothing',
      'delete from "department_members" where "department_id" = ? and "email" = ?',
      'update "departments" set "title" = ? where "slug" = ?',
      'delete from "sessions" where "token_hash" = ?',
      'delete from "sessions" where "user_id" = ?',
      'update "sessions" set "expires_at" = ? where "id" = ?',
      'update sessions set idle_expires_at = ?, expires_at = ? where id = ?',
    ]) {
      expect(changesAccess(source), source).toBe(true);
    }
    for (const source of [
      'insert into "sessions" ("token_hash", "user_id") values (?, ?)',
      'update "sessions" set "idle_expires_at" = ? where "id" = ?',
      'update "records" set "voted_at" = ? where "id" = ? and "voted_at" is null',
      'insert into "audit_log" ("action", "target") values (?, ?)',
      'insert into "login_throttle" ("key") values (?)',
      'select "email" from "users" where "id" = ?',
      'select * from "sessions" inner join "users" on "users"."id" = "sessions"."user_id"',
      'begin',
      'commit',
    ]) {
      expect(changesAccess(source), source).toBe(false);
    }
  });
});

describe('the access version of the embedded database', () => {
  it('moves with writes to users and allow-lists and with ended sessions, not with votes or new sessions', async () => {
    t = await createTestApp();
    const version = accessVersionOf(t.db.kysely);
    if (!version) throw new Error('SQLite must have an access version');
    let seen = version();
    const moved = () => {
      const now = version();
      const changed = now !== seen;
      seen = now;
      return changed;
    };

    const ana = await createUser(t.db, { email: 'ana@example.org', role: 'staff' });
    expect(moved()).toBe(true);
    await grantDepartment(t.db.kysely, ana.email, 'cabimas', actor, new Date());
    expect(moved()).toBe(true);

    const repo = createAuthRepository(t.db.kysely);
    const expires = new Date(Date.now() + 60_000).toISOString();
    await repo.insertSession({
      tokenHash: 'a'.repeat(64),
      userId: ana.id,
      createdAt: new Date().toISOString(),
      expiresAt: expires,
      idleExpiresAt: expires,
      ip: null,
      userAgent: null,
    });
    expect(moved()).toBe(false);
    const [session] = await t.db.kysely.selectFrom('sessions').select('id').execute();
    await repo.extendSession(session?.id ?? 0, expires);
    expect(moved()).toBe(false);
    await writeAudit(t.db.kysely, { actorEmail: actor.email, action: 'prueba' });
    expect(moved()).toBe(false);

    await repo.deleteSessionByHash('a'.repeat(64));
    expect(moved()).toBe(true);
    await revokeDepartment(t.db.kysely, ana.email, 'cabimas', actor, new Date());
    expect(moved()).toBe(true);
  });

  it('has a data version that moves with every write, the audit trail included', async () => {
    t = await createTestApp();
    const data = dataVersionOf(t.db.kysely);
    const access = accessVersionOf(t.db.kysely);
    if (!data || !access) throw new Error('SQLite must have change versions');
    const [dataBefore, accessBefore] = [data(), access()];
    await t.db.kysely.selectFrom('records').select('id').execute();
    expect(data()).toBe(dataBefore);
    await writeAudit(t.db.kysely, { actorEmail: actor.email, action: 'prueba' });
    expect(data()).toBe(dataBefore + 1);
    expect(access()).toBe(accessBefore);
  });

  it('moves when another connection to the same file commits, as the command line does', async () => {
    t = await createTestApp();
    const version = accessVersionOf(t.db.kysely);
    if (!version) throw new Error('SQLite must have an access version');
    other = await openDatabase({ dataDir: t.config.dataDir, databaseUrl: undefined });
    const data = dataVersionOf(t.db.kysely);
    if (!data) throw new Error('SQLite must have change versions');
    const [before, dataBefore] = [version(), data()];
    await aMomentLater();
    expect([version(), data()]).toEqual([before, dataBefore]);
    await writeAudit(other.kysely, { actorEmail: actor.email, action: 'prueba' });
    await aMomentLater();
    expect(version()).not.toBe(before);
    expect(data()).not.toBe(dataBefore);
  });

  it('disables the session of a user at once when the command line disables them from another process', async () => {
    t = await createTestApp();
    await createUser(t.db, { email: 'ana@example.org', role: 'staff', departments: ['cabimas'] });
    const cookie = await loginAs(t, 'ana@example.org');
    const check = async () => (await t.request({ url: '/api/auth/session', headers: { cookie } })).json();
    const cabimas = async () =>
      (await t.request({ url: '/api/access/departments/cabimas', headers: { cookie } })).statusCode;
    // Twice: the second answer comes from what the first kept.
    expect((await check()).user?.email).toBe('ana@example.org');
    expect((await check()).menu).toEqual([{ title: 'Cabimas', path: '/validation/cabimas' }]);
    expect(await cabimas()).toBe(200);
    expect(await cabimas()).toBe(200);

    other = await openDatabase({ dataDir: t.config.dataDir, databaseUrl: undefined });
    await revokeDepartment(other.kysely, 'ana@example.org', 'cabimas', actor, new Date());
    await aMomentLater();
    expect((await check()).menu).toEqual([]);
    expect(await cabimas()).toBe(404);

    // What disabling an account writes (people's accounts service), done by another connection.
    await other.kysely.transaction().execute(async (trx) => {
      const ana = await trx
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'ana@example.org')
        .executeTakeFirstOrThrow();
      await trx.updateTable('users').set({ disabled: 1 }).where('id', '=', ana.id).execute();
      await trx.deleteFrom('sessions').where('user_id', '=', ana.id).execute();
    });
    await aMomentLater();
    expect((await check()).user).toBeNull();
  });
});

describe('createAccessCache', () => {
  it('does not keep an answer whose load overlapped a change', async () => {
    t = await createTestApp();
    const cached = createAccessCache<string>(t.db.kysely);
    let loads = 0;
    const slowLoad = async () => {
      loads++;
      await createUser(t.db, { email: `u${loads}@example.org`, role: 'staff' });
      return `respuesta ${loads}`;
    };
    expect(await cached('clave', slowLoad)).toBe('respuesta 1');
    expect(await cached('clave', async () => 'rápida')).toBe('rápida');
    expect(await cached('clave', async () => 'otra')).toBe('rápida');
    expect(loads).toBe(1);
  });
});
