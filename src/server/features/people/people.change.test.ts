import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { userId } from '#server/testing/admin';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp, testDialect } from '#server/testing/test-app';

let t: TestApp;
let admin: string;
const FAILS = 'falla@example.org';
const STAYS = 'se.queda@example.org';

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
  admin = await sessionCookie(t, 'jefa@example.org');
  // A failure the database raises half-way through the use case: when the new account is put on the
  // Lagunillas list, after the account, its audit row and the Notas grant (menu order) are written.
  const lagunillas = sql`(select id from departments where slug = 'lagunillas')`;
  await failWhen('department_members', sql`new.email = ${sql.lit(FAILS)} and new.department_id = ${lagunillas}`);
  // And when STAYS is disabled: its audit row, written after the change of role and its row.
  await failWhen('audit_log', sql`new.action = 'user.disable' and new.target = ${sql.lit(STAYS)}`);
});

/** Makes the database refuse a row of `table` that meets `condition` (a trigger, as a failing disk would). */
async function failWhen(table: 'department_members' | 'audit_log', condition: ReturnType<typeof sql>) {
  const name = sql.id(`fail_${table}`);
  if (testDialect === 'sqlite') {
    await sql`create trigger ${name} before insert on ${sql.table(table)} when ${condition}
      begin select raise(abort, 'falla de prueba'); end`.execute(t.db.kysely);
  } else {
    await sql`create function ${name}() returns trigger language plpgsql as $$
      begin if ${condition} then raise exception 'falla de prueba'; end if; return new; end $$`.execute(t.db.kysely);
    await sql`create trigger ${name} before insert on ${sql.table(table)}
      for each row execute function ${name}()`.execute(t.db.kysely);
  }
}
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

describe('changing a person’s role and access state is one change', () => {
  it('keeps the old role, and no audit row of it, when disabling fails after the role was changed', async () => {
    await createUser(t.db, { email: STAYS, role: 'staff' });
    const res = await t.request({
      method: 'PATCH',
      url: `/api/admin/users/${await userId(t, STAYS)}`,
      headers: { cookie: admin },
      payload: { role: 'admin', disabled: true },
    });
    expect(res.statusCode).toBe(500);

    const row = await t.db.kysely.selectFrom('users').select(['role', 'disabled']).where('email', '=', STAYS).execute();
    expect(row.map((r) => [r.role, Number(r.disabled)])).toEqual([['staff', 0]]);
    const roles = (await listAudit(t.db.kysely, { action: 'user.role' })).filter((r) => r.target === STAYS);
    expect(roles).toEqual([]);
  });
});
