import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { grantDepartment, revokeDepartment } from '#server/platform/access/access.service';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { runChange } from '#server/platform/change/change';
import { type Db, openDatabase } from '#server/platform/db/database';
import type { Database } from '#server/platform/db/schema';
import { createAuthRepository } from '#server/platform/session/session.repository';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { accessVersionOf, createAccessCache, dataVersionOf } from './cache';

let t: TestApp;
let other: Db | undefined;
afterEach(async () => {
  await other?.close();
  other = undefined;
  await t?.close();
});

const actor = { email: 'pruebas', ip: null };
// Another process's commit is noticed within a millisecond (cache.ts).
const aMomentLater = () => new Promise((resolve) => setTimeout(resolve, 3));

/** Whether the access version (and the data version) moved since the last call. */
function watchVersions(db: Kysely<Database>) {
  const access = accessVersionOf(db);
  const data = dataVersionOf(db);
  if (!access || !data) throw new Error('SQLite must have change versions');
  let seen = [access(), data()];
  return () => {
    const now = [access(), data()];
    const moved = { access: now[0] !== seen[0], data: now[1] !== seen[1] };
    seen = now;
    return moved;
  };
}

describe('the writes that move the access version', () => {
  it('are every write that can end a session or change who may open what, however it is spelled, and only those', async () => {
    t = await createTestApp();
    const db = t.db.kysely;
    const ana = await createUser(t.db, { email: 'ana@example.org', role: 'staff', departments: ['cabimas'] });
    const later = new Date(Date.now() + 60_000).toISOString();
    const evenLater = new Date(Date.now() + 120_000).toISOString();
    const earlier = new Date(Date.now() + 30_000).toISOString();
    const newSession = (hash: string) =>
      sql`insert into "sessions" ("token_hash", "user_id", "created_at", "expires_at", "idle_expires_at")
          values (${hash}, ${ana.id}, ${later}, ${evenLater}, ${later}) on conflict do nothing`.execute(db);
    const moved = watchVersions(db);

    // What SQL text matching used to miss: a write that starts with "with".
    await newSession('a'.repeat(64));
    moved();
    await sql`with doomed as (select "id" from "sessions" where "token_hash" = ${'a'.repeat(64)})
              delete from "sessions" where "id" in (select "id" from doomed)`.execute(db);
    expect(moved()).toEqual({ access: true, data: true });
    await sql`with chosen as (select "id" from "users" where "email" = ${ana.email})
              update "users" set "disabled" = 1 where "id" in (select "id" from chosen)`.execute(db);
    expect(moved()).toEqual({ access: true, data: true });

    const accessWrites = [
      sql`update "users" set "disabled" = 0 where "id" = ${ana.id}`,
      sql`insert into "users" ("email", "password_hash", "role", "disabled", "created_at", "updated_at")
          values ('beto@example.org', '', 'staff', 0, ${later}, ${later})`,
      sql`delete from "users" where "email" = 'beto@example.org'`,
      sql`delete from "department_members" where "email" = ${ana.email}`,
      sql`insert into "department_members" ("department_id", "email", "created_at")
          select "id", ${ana.email}, ${later} from "departments" where "slug" = 'cabimas'`,
      sql`update "departments" set "title" = 'Cabimas' where "slug" = 'cabimas'`,
      sql`update "sessions" set "expires_at" = ${later} where "token_hash" = ${'b'.repeat(64)}`,
      sql`update sessions set idle_expires_at = ${earlier} where token_hash = ${'b'.repeat(64)}`,
      sql`delete from "sessions" where "user_id" = ${ana.id}`,
    ];
    for (const write of accessWrites) {
      await newSession('b'.repeat(64));
      moved();
      await write.execute(db);
      expect(moved(), write.compile(db).sql).toEqual({ access: true, data: true });
    }

    await newSession('c'.repeat(64));
    expect(moved()).toEqual({ access: false, data: true });
    const otherWrites = [
      sql`update "sessions" set "idle_expires_at" = ${evenLater} where "token_hash" = ${'c'.repeat(64)}`,
      sql`update "records" set "voted_at" = ${later} where "id" = 0 and "voted_at" is null`,
      sql`insert into "audit_log" ("at", "actor_email", "action") values (${later}, 'pruebas', 'prueba')`,
      sql`insert into "login_throttle" ("key", "failures", "window_started_at") values ('k', 1, ${later})`,
    ];
    for (const write of otherWrites) {
      await write.execute(db);
      expect(moved(), write.compile(db).sql).toEqual({ access: false, data: true });
    }
    for (const read of [
      sql`select "email" from "users" where "id" = ${ana.id}`,
      sql`select * from "sessions" inner join "users" on "users"."id" = "sessions"."user_id"`,
    ]) {
      await read.execute(db);
      expect(moved(), read.compile(db).sql).toEqual({ access: false, data: false });
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
    await runChange(t.db.kysely, (change) => grantDepartment(change, ana.email, 'cabimas', actor, new Date()));
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
    await runChange(t.db.kysely, (change) => revokeDepartment(change, ana.email, 'cabimas', actor, new Date()));
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
    expect(data()).toBeGreaterThan(dataBefore);
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
    const cookie = await sessionCookie(t, 'ana@example.org');
    const check = async () => (await t.request({ url: '/api/auth/session', headers: { cookie } })).json();
    const cabimas = async () =>
      (await t.request({ url: '/api/access/departments/cabimas', headers: { cookie } })).statusCode;
    // Twice: the second answer comes from what the first kept.
    expect((await check()).user?.email).toBe('ana@example.org');
    expect((await check()).menu).toEqual([{ title: 'Cabimas', path: '/validation/cabimas' }]);
    expect(await cabimas()).toBe(200);
    expect(await cabimas()).toBe(200);

    other = await openDatabase({ dataDir: t.config.dataDir, databaseUrl: undefined });
    await runChange(other.kysely, (change) =>
      revokeDepartment(change, 'ana@example.org', 'cabimas', actor, new Date()),
    );
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
