import type { Kysely } from 'kysely';
import { inSlices } from '#server/platform/db/in-slices';
import type { Database } from '#server/platform/db/schema';

/** One drill account as it is made: its e-mail, its department, the batch's password hash, maybe a number. */
export interface NewDrillAccount {
  email: string;
  passwordHash: string;
  departmentId: number;
  smsPhone: string | null;
  at: string;
}

/** The SQL of the rehearsal's accounts (decision 103); the use cases in drill-accounts.ts hold the rules. */
export function drillAccountsRepository(trx: Kysely<Database>) {
  return {
    /** The department of that slug, or undefined. */
    department(slug: string) {
      return trx.selectFrom('departments').select(['id', 'slug']).where('slug', '=', slug).executeTakeFirst();
    },

    /** Every number already given to an account (a number names one account). */
    async takenPhones(): Promise<Set<string>> {
      return new Set((await trx.selectFrom('user_phones').select('phone').execute()).map((r) => r.phone));
    },

    /** A validator account marked drill-only, with access to its department and maybe a number. */
    async insert(account: NewDrillAccount): Promise<void> {
      const { email, at } = account;
      const user = await trx
        .insertInto('users')
        .values({
          email,
          password_hash: account.passwordHash,
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
        .values({ department_id: account.departmentId, email, created_at: at })
        .execute();
      if (account.smsPhone !== null)
        await trx
          .insertInto('user_phones')
          .values({ phone: account.smsPhone, user_id: user.id, created_at: at })
          .execute();
    },

    /**
     * The drill's accounts, with their sessions, trusted browsers, codes, numbers, access, field reports,
     * kept answers and SMS. Their audit rows stay (decision 079). Answers how many accounts went.
     */
    async removeAll(): Promise<number> {
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
    },
  };
}
