import type { Kysely } from 'kysely';
import { runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, Conflict, ServiceUnavailable, TooManyRequests, Unauthorized } from '#server/platform/http/errors';
import { hashToken, isTokenShaped } from '#server/platform/session/cookie-tokens';
import type { RequestContext, SessionUser } from '#server/platform/session/identity';
import {
  acceptedStep,
  createSecondFactorRepository,
  enrolmentOf,
  isRecoveryCodeShaped,
  issueRecoveryCodes,
  newTotpSecret,
  recoveryCodeHash,
} from '#server/platform/session/second-factor';
import { type SecondFactorKey, SecondFactorKeyError } from '#server/platform/session/second-factor-key';
import { createThrottle, throttleKeys } from '#server/platform/session/throttle';
import {
  type RecoveryCodes,
  type SecondFactorEnrolment,
  type SecondFactorStatus,
  secondFactorMessages,
} from '#shared/features/auth/second-factor';
import { authMessages, tooManyAttemptsMessage } from '#shared/platform/session';

type Ctx = RequestContext & { token: string | undefined };

/**
 * The second factor's use cases (docs/decisions/080): enrolling (a QR code, then one code to confirm it,
 * then ten recovery codes), giving a code after signing in, and one's own status. Codes are counted like
 * passwords: per account at this address and per address, with the sign-in's limits and waits, and a
 * failure is its own change, committed before the refusal (decision 072). Secrets are stored sealed with
 * `key` (decision 086) and opened only to check a code.
 */
export function createSecondFactorService(db: Kysely<Database>, clock: () => Date, key: SecondFactorKey) {
  const repo = createSecondFactorRepository(db);
  const throttle = createThrottle(db);
  const keysOf = (user: SessionUser, ctx: RequestContext) => [
    throttleKeys.accountAtAddress(user.email, ctx.ip),
    throttleKeys.address(ctx.ip),
    throttleKeys.secondFactorAccount(user.email),
  ];

  /**
   * Refuses while blocked; after a wrong code, counts it (with its audit row) and refuses. Every wrong
   * code counts against the whole account too (decision 092): past its limit, six-digit codes wait from
   * any address, but a recovery code is not held by that key (`code`), so strangers who know the password
   * never lock its owner out; the limits of the address still hold a recovery code.
   */
  async function guarded<T>(
    user: SessionUser,
    ctx: RequestContext,
    code: 'six-digit' | 'recovery',
    attempt: () => Promise<T | undefined>,
  ) {
    const now = clock();
    const keys = keysOf(user, ctx);
    const accountKey = throttleKeys.secondFactorAccount(user.email);
    const wait = await throttle.waitSeconds(code === 'recovery' ? keys.filter((k) => k !== accountKey) : keys, now);
    if (wait > 0) {
      await runChange(db, (change) => throttle.noteRefused(change, wait, user.email, ctx, now));
      throw TooManyRequests(tooManyAttemptsMessage(wait), wait);
    }
    const result = await attempt();
    if (result !== undefined) return result;
    await runChange(db, (change) =>
      throttle.recordFailure(change, keys, user.email, ctx, now, { reason: 'second_factor' }),
    );
    throw BadRequest(secondFactorMessages.wrongCode);
  }

  /** A stored secret opened; a key that cannot open it is the operator's problem, said plainly. */
  function openSecret(stored: string, user: SessionUser): string {
    try {
      return key.open(stored, user.id);
    } catch (error) {
      if (error instanceof SecondFactorKeyError) throw ServiceUnavailable(secondFactorMessages.keyMismatch);
      throw error;
    }
  }

  async function stateOf(user: SessionUser) {
    const state = await repo.state(user.id);
    if (!state) throw Unauthorized(authMessages.signInRequired);
    return state;
  }

  return {
    async status(user: SessionUser): Promise<SecondFactorStatus> {
      const state = await stateOf(user);
      return {
        enabled: state.totp_secret !== null,
        recoveryCodesLeft: state.totp_secret ? await repo.unusedRecoveryCodes(user.id) : 0,
      };
    },

    /**
     * A new secret to scan, kept as pending until a code confirms it. A person who has a second factor
     * gets no second one: an admin resets it first (a stolen session must not replace it).
     */
    async enrol(user: SessionUser): Promise<SecondFactorEnrolment> {
      const state = await stateOf(user);
      if (state.totp_secret) throw Conflict(secondFactorMessages.alreadyEnrolled);
      const secret = newTotpSecret();
      await runChange(db, async ({ trx }) =>
        createSecondFactorRepository(trx).setPendingSecret(user.id, key.seal(secret, user.id)),
      );
      return { secret, ...(await enrolmentOf(secret, user.email)) };
    },

    /**
     * The first code from the app confirms the pending secret: it becomes the person's, this session owes
     * nothing more, and ten recovery codes are answered (shown once; only their hashes are kept).
     */
    async confirm(user: SessionUser, code: string, ctx: Ctx): Promise<RecoveryCodes> {
      const state = await stateOf(user);
      if (state.totp_secret) throw Conflict(secondFactorMessages.alreadyEnrolled);
      const sealed = state.totp_pending_secret;
      if (!sealed) throw BadRequest(secondFactorMessages.noEnrolment);
      const pending = openSecret(sealed, user);
      return guarded(user, ctx, 'six-digit', async () => {
        const now = clock();
        const step = acceptedStep(pending, user.email, code, now, null);
        if (step === null) return undefined;
        return runChange(db, async (change) => {
          const r = createSecondFactorRepository(change.trx);
          await r.enable(user.id, sealed, step, now);
          if (isTokenShaped(ctx.token)) await r.settleSession(hashToken(ctx.token));
          const recoveryCodes = await issueRecoveryCodes(change, user.id, now);
          await change.audit({ actorEmail: user.email, action: 'auth.second_factor_enrol', ip: ctx.ip, at: now });
          return { recoveryCodes };
        });
      });
    },

    /**
     * After signing in: a six-digit code (of a step later than the last one taken) or an unspent recovery
     * code settles this session. A recovery code is spent by it.
     */
    async verify(user: SessionUser, code: string, ctx: Ctx): Promise<SessionUser> {
      const state = await stateOf(user);
      if (!state.totp_secret) throw BadRequest(secondFactorMessages.enrolRequired);
      const secret = openSecret(state.totp_secret, user);
      const recovery = isRecoveryCodeShaped(code);
      return guarded(user, ctx, recovery ? 'recovery' : 'six-digit', async () => {
        const now = clock();
        const step = recovery ? null : acceptedStep(secret, user.email, code, now, state.totp_last_step);
        if (!recovery && step === null) return undefined;
        return runChange(db, async (change) => {
          const r = createSecondFactorRepository(change.trx);
          // Two requests with the same code: the database lets one take it.
          const taken =
            step === null
              ? await r.spendRecoveryCode(user.id, recoveryCodeHash(code), now)
              : await r.takeStep(user.id, step);
          if (!taken) return undefined;
          if (isTokenShaped(ctx.token)) await r.settleSession(hashToken(ctx.token));
          await change.audit({
            actorEmail: user.email,
            action: 'auth.second_factor',
            ip: ctx.ip,
            details: recovery ? { recoveryCode: true, recoveryCodesLeft: await r.unusedRecoveryCodes(user.id) } : null,
            at: now,
          });
          return { ...user, secondFactor: null };
        });
      });
    },
  };
}
export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
