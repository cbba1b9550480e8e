import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { addRecords, SLUG_A, SLUG_B, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { electionMessages } from '#shared/features/election/election';

let t: TestApp;
afterEach(async () => t?.close());

const accounts = (cookie: string, payload: object) =>
  t.request({ method: 'POST', url: '/api/admin/election/drill/accounts', headers: { cookie }, payload });
const phase = (cookie: string, to: string) =>
  t.request({
    method: 'PUT',
    url: '/api/admin/election/phase',
    headers: { cookie },
    payload: { phase: to, reason: 'Ensayo' },
  });

describe('drill accounts (decision 103)', () => {
  it('are made only during the drill, by admins, and go with everything of theirs at its end', async () => {
    t = await createTestApp({}, { electionPhase: null });
    const cookies = await signInPeople(t);
    await addRecords(t, SLUG_A, 5);
    const body = { count: 3, departments: [SLUG_A, SLUG_B], smsPhones: 1 };

    const before = await accounts(cookies.admin, body);
    expect(before.statusCode).toBe(409);
    expect(before.json().message).toBe(electionMessages.drillAccountsOnlyInDrill);
    expect((await phase(cookies.admin, 'simulacro')).statusCode).toBe(200);
    expect((await accounts(cookies.validatorA, body)).statusCode).toBe(404);
    expect((await accounts(cookies.admin, { ...body, departments: ['no-existe'] })).statusCode).toBe(400);

    const made = await accounts(cookies.admin, body);
    expect(made.statusCode).toBe(200);
    const { password, accounts: list } = made.json() as {
      password: string;
      accounts: { email: string; slug: string; smsPhone: string | null }[];
    };
    expect(list.map((a) => a.slug)).toEqual([SLUG_A, SLUG_B, SLUG_A]);
    expect(list.map((a) => a.smsPhone !== null)).toEqual([true, false, false]);
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: list[0]?.email, password },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().menu.map((m: { path: string }) => m.path)).toContain(`/validation/${SLUG_A}`);

    const ended = await t.request({
      method: 'POST',
      url: '/api/admin/election/drill/end',
      headers: { cookie: cookies.admin },
      payload: { votes: 0, photos: 0, reason: 'Fin del ensayo' },
    });
    expect(ended.json()).toMatchObject({ accountsRemoved: 3 });
    const db = t.db.kysely;
    expect(await db.selectFrom('users').select('email').where('drill_only', '=', 1).execute()).toEqual([]);
    expect(
      await db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', 'not in', db.selectFrom('users').select('id'))
        .execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('department_members').select('email').where('email', 'like', '%@ensayo.invalid').execute(),
    ).toEqual([]);
    expect(await db.selectFrom('user_phones').select('phone').execute()).toEqual([]);
    const again = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: list[0]?.email, password },
    });
    expect(again.statusCode).toBe(401);
    const audit = await listAudit(db);
    expect(audit.find((a) => a.action === 'election.drill_accounts')?.details).toContain('"count":3');
    expect(audit.find((a) => a.action === 'election.drill_end')?.details).toContain('"accounts":3');
  });
});
