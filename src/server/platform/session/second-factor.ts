import type { Kysely } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Change } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { createSettingsRepository } from '#server/platform/settings/settings.repository';
import { SECOND_FACTOR_SETTING } from '#shared/features/auth/second-factor';
import { hashToken } from './cookie-tokens';
import type { Actor } from './identity';
import { createAuthRepository } from './session.repository';

/**
 * The second factor (TOTP, RFC 6238; docs/decisions/080): what the sign-in, the person's own settings,
 * the admins' Personas and the command line share. The codes are those of any authenticator app: SHA-1,
 * six digits, thirty seconds, one step of drift either way. The SQL is in `createSecondFactorRepository`.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Comando';

const totpOf = (secret: string, email: string) =>
  new TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

/**
 * Whether admins must have a second factor: the setting 'Exigir segundo factor a los administradores',
 * or, never saved, `byDefault` (on in production).
 */
export async function readSecondFactorRequired(db: Kysely<Database>, byDefault: boolean): Promise<boolean> {
  const value = await createSettingsRepository(db).get(SECOND_FACTOR_SETTING);
  return value === undefined ? byDefault : value === '1';
}

/** A new random secret (160 bits, as RFC 4226 recommends), base32 as authenticator apps read it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// address a QR code carries, and that QR code as an SVG drawn here (no service asked). */
export async function enrolmentOf(secret: string, email: string): Promise<{ uri: string; qrSvg: string }> {
  const uri = totpOf(secret, email).toString();
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { uri, qrSvg };
}

/**
 * The 30-second step a six-digit code is valid for at `now`, or null. `lastStep` is the step of the last
 * code taken: that one, and any before it, is refused, so a code seen over someone's shoulder cannot be
 * used again.
 */
export function acceptedStep(secret: string, email: string, code: string, now: Date, lastStep: number | null) {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret, email).validate({ token: code, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  const step = Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

/** A recovery code: 16 base32 characters (80 bits) in groups of four, easy to copy by hand. */
function newRecoveryCode(): string {
  const raw = new Secret({ size: 10 }).base32.toLowerCase();
  return raw.match(/.{4}/g)?.join('-') ?? raw;
}

/** What is stored of a recovery code, however it is typed (case, spaces and dashes do not matter). */
export const recoveryCodeHash = (typed: string) => hashToken(typed.toLowerCase().replace(/[^a-z2-7]/g, ''));

/** Whether `typed` looks like a recovery code rather than a six-digit code. */
export const isRecoveryCodeShaped = (typed: string) => typed.replace(/[^a-zA-Z2-7]/g, '').length === 16;

export function createSecondFactorRepository(db: Kysely<Database>) {
  return {
    async state(userId: number) {
      return db
        .selectFrom('users')
        .select(['id', 'email', 'totp_secret', 'totp_pending_secret', 'totp_last_step', 'totp_enabled_at'])
        .where('id', '=', userId)
        .executeTakeFirst();
    },

    /** `sealed`: the new secret as second-factor-key.ts seals it (every secret is stored so, decision 086). */
    async setPendingSecret(userId: number, sealed: string): Promise<void> {
      await db.updateTable('users').set({ totp_pending_secret: sealed }).where('id', '=', userId).execute();
    },

    /** The pending secret (sealed) becomes the person's, with the step of the code that confirmed it. */
    async enable(userId: number, sealed: string, step: number, now: Date): Promise<void> {
      await db
        .updateTable('users')
        .set({
          totp_secret: sealed,
          totp_pending_secret: null,
          totp_last_step: step,
          totp_enabled_at: now.toISOString(),
        })
        .where('id', '=', userId)
        .execute();
    },

    /** Takes the step of a code: false if another request took this step (or a later one) first. */
    async takeStep(userId: number, step: number): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', userId)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async replaceRecoveryCodes(userId: number, hashes: string[], now: Date): Promise<void> {
      await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await db
        .insertInto('recovery_codes')
        .values(
          hashes.map((code_hash) => ({ code_hash, user_id: userId, created_at: now.toISOString(), used_at: null })),
        )
        .execute();
    },

    /** Spends a recovery code of this person: false if it is not theirs or was spent already. */
    async spendRecoveryCode(userId: number, hash: string, now: Date): Promise<boolean> {
      const result = await db
        .updateTable('recovery_codes')
        .set({ used_at: now.toISOString() })
        .where('user_id', '=', userId)
        .where('code_hash', '=', hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async unusedRecoveryCodes(userId: number): Promise<number> {
      const row = await db
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** The second factor goes: secret, pending secret, recovery codes. */
    async clear(userId: number): Promise<void> {
      await db
        .updateTable('users')
        .set({ totp_secret: null, totp_pending_secret: null, totp_last_step: null, totp_enabled_at: null })
        .where('id', '=', userId)
        .execute();
      await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    },

    /** This session no longer owes the second factor. */
    async settleSession(tokenHash: string): Promise<void> {
      await db.updateTable('sessions').set({ second_factor: null }).where('token_hash', '=', tokenHash).execute();
    },
  };
}

/** Ten new recovery codes for `userId` (the old ones go): the codes themselves, shown once, never stored. */
export async function issueRecoveryCodes(change: Change, userId: number, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await createSecondFactorRepository(change.trx).replaceRecoveryCodes(userId, codes.map(recoveryCodeHash), now);
  return codes;
}

/**
 * A step of a change (decision 072): the person's second factor is removed, every session of theirs
 * ends (one may have been opened by whoever held the lost phone), and the audit row says who did it.
 * The admins' Personas and the command line call it.
 */
export async function resetSecondFactor(
  change: Change,
  user: { id: number; email: string },
  actor: Actor,
  now: Date,
): Promise<void> {
  await createSecondFactorRepository(change.trx).clear(user.id);
  const ended = await createAuthRepository(change.trx).deleteSessionsOfUser(user.id);
  await change.audit({
    actorEmail: actor.email,
    action: 'user.second_factor_reset',
    target: user.email,
    ip: actor.ip,
    details: { sessionsEnded: ended },
    at: now,
  });
}
