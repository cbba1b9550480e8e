import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp, testDialect } from '#server/testing/test-app';

let t: TestApp;
let admin: string;
const FAILS = 'falla@example.org';

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
  admin = await sessionCookie(t, 'jefa@example.org');
  // A failure the database raises half-way through the use case: when the new account is put on the
  // Lagunillas list, after the account, its audit row and the Notas grant (menu order) are written.
  const lagunillas = sql`(select id from departments where slug = 'lagunillas')`;
  if (testDialect === 'sqlite') {
    await sql`create trigger fail_grant before insert on department_members
      when new.email = ${sql.lit(FAILS)} and new.department_id = ${lagunillas}
      begin select raise(abort, 'falla de prueba'); end`.execute(t.db.kysely);
  } else {
    await sql`create function fail_grant() returns trigger language plpgsql as $$
      begin
        if new.email = ${sql.lit(FAILS)} and new.department_id = ${lagunillas} then raise exception 'falla de prueba'; end if;
        return new;
      end $$`.execute(t.db.kysely);
    await sql`create trigger fail_grant before insert on department_members
      for each row execute function fail_grant()`.execute(t.db.kysely);
  }
});
afterAll(async () => t?.close());

describe('creating an account is one change', () => {
  it('leaves neither the account, its grants nor any of their audit rows when it fails after writing some', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/admin/users',
      headers: { cookie: admin },
      payload: { email: FAILS, role: 'staff', departments: ['lagunillas', 'notas'] },
    });
    expect(res.statusCode).toBe(500);

    const stored = await t.db.kysely.selectFrom('users').select('id').where('email', '=', FAILS).execute();
    expect(stored).toEqual([]);
    const granted = await t.db.kysely
      .selectFrom('department_members')
      .select('department_id')
      .where('email', '=', FAILS)
      .execute();
    expect(granted).toEqual([]);
    const audited = [
      ...(await listAudit(t.db.kysely, { action: 'user.create' })),
      ...(await listAudit(t.db.kysely, { action: 'access.grant' })),
    ].filter((row) => row.target === FAILS);
    expect(audited).toEqual([]);
  });

  it('stores the account, its grants and their audit rows together when nothing fails', async () => {
    const email = 'sin.falla@example.org';
    const res = await t.request({
      method: 'POST',
      url: '/api/admin/users',
      headers: { cookie: admin },
      payload: { email, role: 'staff', departments: ['lagunillas', 'notas'] },
    });
    expect(res.statusCode).toBe(201);
    const grants = (await listAudit(t.db.kysely, { action: 'access.grant' })).filter((row) => row.target === email);
    expect(grants.map((row) => row.department_slug).sort()).toEqual(['lagunillas', 'notas']);
    expect((await listAudit(t.db.kysely, { action: 'user.create' })).map((row) => row.target)).toContain(email);
  });
});
