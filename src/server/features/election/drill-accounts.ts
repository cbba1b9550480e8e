import { randomBytes, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { lockElection } from '#server/core/election/election';
import { runChange } from '#server/platform/change/change';
import { inSlices } from '#server/platform/db/in-slices';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, Conflict } from '#server/platform/http/errors';
import type { Actor } from '#server/platform/session/identity';
import { hashPassword } from '#server/platform/session/passwords';
import {
  type DrillAccountsBody,
  type DrillAccountsResult,
  drillAccountsBodySchema,
  electionMessages,
} from '#shared/features/election/election';

/** The domain of drill accounts: reserved (RFC 2606), so no mail can ever reach one. */
export const DRILL_ACCOUNT_DOMAIN = 'ensayo.invalid';

/**
 * The rehearsal's validator accounts (decision 103): made only during 'Simulacro', each on one department,
 * all with one password made for the batch; 'Terminar simulacro' deletes them (removeDrillAccounts).
 */
export function createDrillAccounts(db: Kysely<Database>, clock: () => Date) {
  return {
    async create(body: DrillAccountsBody, actor: Actor): Promise<DrillAccountsResult> {
      const input = drillAccountsBodySchema.parse(body);
      if (input.smsPhones > input.count) throw BadRequest('No puede haber más móviles que cuentas.');
      const password = `ensayo-${randomBytes(12).toString('base64url')}`;
      // One hash for the batch: the accounts are many, short-lived and all the rehearsal's.
      const passwordHash = await hashPassword(password);
      const now = clock();
      const at = now.toISOString();
      const batch = randomBytes(3).toString('hex');
      return runChange(db, async ({ trx, audit }) => {
        const day = await lockElection(trx, now, 'update');
        if (day.phase !== 'simulacro') throw Conflict(electionMessages.drillAccountsOnlyInDrill);
        const departments = [];
        for (const slug of input.departments) {
          const found = await trx
            .selectFrom('departments')
            .select(['id', 'slug'])
            .where('slug', '=', slug)
            .executeTakeFirst();
          if (!found) throw BadRequest(electionMessages.drillAccountsUnknownDepartment(slug));
          departments.push(found);
        }
        const taken = new Set((await trx.selectFrom('user_phones').select('phone').execute()).map((r) => r.phone));
        const accounts: DrillAccountsResult['accounts'] = [];
        for (let n = 0; n < input.count; n++) {
          const email = `ensayo-${batch}-${n + 1}@${DRILL_ACCOUNT_DOMAIN}`;
          const department = departments[n % departments.length] as { id: number; slug: string };
          const user = await trx
            .insertInto('users')
            .values({
              email,
              password_hash: passwordHash,
              role: 'staff',
              disabled: 0,
              must_change_password: 0,
              password_expires_at: null,
              last_login_at: null,
              created_at: at,
              updated_at: at,
              drill_only: 1,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('department_members')
            .values({ department_id: department.id, email, created_at: at })
            .execute();
          let smsPhone: string | null = null;
          if (n < input.smsPhones) {
            // A made-up number: replies to drill accounts are never sent (sms.service).
            do smsPhone = `+58416${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
            while (taken.has(smsPhone));
            taken.add(smsPhone);
            await trx.insertInto('user_phones').values({ phone: smsPhone, user_id: user.id, created_at: at }).execute();
          }
          accounts.push({ email, slug: department.slug, smsPhone });
        }
        await audit({
          actorEmail: actor.email,
          action: 'election.drill_accounts',
          target: 'election',
          ip: actor.ip,
          details: { count: input.count, smsPhones: input.smsPhones, departmentsUsed: input.departments.length },
          at: now,
        });
        return { password, accounts };
      });
    },
  };
}

/**
 * Inside 'Terminar simulacro': the drill's accounts go, with their sessions, trusted browsers, codes,
 * numbers, access, field reports, kept answers and SMS. Their audit rows stay (decision 079). The rows of
 * their unfinished resumable uploads stay until they expire, as every drill upload's (the sweep removes
 * them with their bytes). Answers how many accounts went.
 */
export async function removeDrillAccounts(trx: Kysely<Database>): Promise<number> {
  const users = await trx.selectFrom('users').select(['id', 'email']).where('drill_only', '=', 1).execute();
  if (users.length === 0) return 0;
  for (const part of inSlices(users.map((u) => u.id))) {
    await trx.deleteFrom('sessions').where('user_id', 'in', part).execute();
    await trx.deleteFrom('trusted_devices').where('user_id', 'in', part).execute();
    await trx.deleteFrom('recovery_codes').where('user_id', 'in', part).execute();
    await trx.deleteFrom('user_phones').where('user_id', 'in', part).execute();
  }
  for (const part of inSlices(users.map((u) => u.email))) {
    await trx.deleteFrom('department_members').where('email', 'in', part).execute();
    await trx.deleteFrom('field_items').where('user_email', 'in', part).execute();
    await trx.deleteFrom('field_devices').where('user_email', 'in', part).execute();
    await trx.deleteFrom('field_reporters').where('user_email', 'in', part).execute();
    await trx.deleteFrom('idempotency_keys').where('actor_email', 'in', part).execute();
    await trx.deleteFrom('election_late_arrivals').where('user_email', 'in', part).execute();
    // The answers first: they name the messages they answer.
    await trx.deleteFrom('sms_messages').where('user_email', 'in', part).where('direction', '=', 'out').execute();
    await trx.deleteFrom('sms_messages').where('user_email', 'in', part).execute();
  }
  for (const part of inSlices(users.map((u) => u.id))) {
    await trx.deleteFrom('users').where('id', 'in', part).execute();
  }
  return users.length;
}

export type DrillAccounts = ReturnType<typeof createDrillAccounts>;
