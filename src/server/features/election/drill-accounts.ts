import { randomBytes, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { lockElection } from '#server/core/election/election';
import { runChange } from '#server/platform/change/change';
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
import { drillAccountsRepository } from './drill-accounts.repository';

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
        const accounts = drillAccountsRepository(trx);
        const departments = [];
        for (const slug of input.departments) {
          const found = await accounts.department(slug);
          if (!found) throw BadRequest(electionMessages.drillAccountsUnknownDepartment(slug));
          departments.push(found);
        }
        const taken = await accounts.takenPhones();
        const made: DrillAccountsResult['accounts'] = [];
        for (let n = 0; n < input.count; n++) {
          const email = `ensayo-${batch}-${n + 1}@${DRILL_ACCOUNT_DOMAIN}`;
          const department = departments[n % departments.length] as { id: number; slug: string };
          let smsPhone: string | null = null;
          if (n < input.smsPhones) {
            // A made-up number: replies to drill accounts are never sent (sms.service).
            do smsPhone = `+58416${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
            while (taken.has(smsPhone));
            taken.add(smsPhone);
          }
          await accounts.insert({ email, passwordHash, departmentId: department.id, smsPhone, at });
          made.push({ email, slug: department.slug, smsPhone });
        }
        await audit({
          actorEmail: actor.email,
          action: 'election.drill_accounts',
          target: 'election',
          ip: actor.ip,
          details: { count: input.count, smsPhones: input.smsPhones, departmentsUsed: input.departments.length },
          at: now,
        });
        return { password, accounts: made };
      });
    },
  };
}

/**
 * Inside 'Terminar simulacro': the drill's accounts go, with everything of theirs but their audit rows
 * (drillAccountsRepository.removeAll). The rows of their unfinished resumable uploads stay until they
 * expire, as every drill upload's (the sweep removes them with their bytes). Answers how many accounts went.
 */
export function removeDrillAccounts(trx: Kysely<Database>): Promise<number> {
  return drillAccountsRepository(trx).removeAll();
}

export type DrillAccounts = ReturnType<typeof createDrillAccounts>;
