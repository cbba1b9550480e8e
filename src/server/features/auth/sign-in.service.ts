import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, ServiceUnavailable, TooManyRequests, Unauthorized } from '#server/platform/http/errors';
import { hashToken } from '#server/platform/session/cookie-tokens';
import type { Actor, RequestContext, SessionUser } from '#server/platform/session/identity';
import {
  checkNewPassword,
  getDummyHash,
  hashPassword,
  needsRehash,
  ONE_TIME_PASSWORD_MS,
  oneTimePasswordExpired,
  verifyPassword,
} from '#server/platform/session/passwords';
import { readSecondFactorRequired } from '#server/platform/session/second-factor';
import { createAuthRepository, type UserRow } from '#server/platform/session/session.repository';
import { createSessionService, type SignInResult } from '#server/platform/session/session.service';
import { createThrottle, THROTTLE, throttleKeys } from '#server/platform/session/throttle';
import { createTrustedDevices } from '#server/platform/session/trusted-devices';
import { normalizeEmail } from '#shared/platform/email';
import { authMessages, tooManyAttemptsMessage } from '#shared/platform/session';
import { type FirebaseIdentity, FirebaseTokenError } from './firebase-identity';

/**
 * The auth use cases: the two ways in (our own password, or a Firebase ID token, both ending in a
 * session of our own), signing out, ending every session, changing one's password. Each write runs
 * through the change helper with its audit row (docs/decisions/069 and 072). A refused or failed
 * attempt is its own change, committed before the refusal is answered.
 */
export function createSignInService(
  db: Kysely<Database>,
  clock: () => Date,
  options: { secondFactorByDefault?: boolean } = {},
) {
  const repo = createAuthRepository(db);

  /**
   * What a new session of `user` owes before it opens anything (decision 080): a code when the person
   * has a second factor; enrolling one when they are an admin and the setting requires it.
   */
  async function owedSecondFactor(user: UserRow): Promise<'verify' | 'enrol' | null> {
    if (user.totp_secret) return 'verify';
    if (user.role !== 'admin') return null;
    const required = await readSecondFactorRequired(db, options.secondFactorByDefault ?? false);
    return required ? 'enrol' : null;
  }
  const sessions = createSessionService(db, clock);
  const throttle = createThrottle(db);
  const devices = createTrustedDevices(db);

  /** Refuses an attempt while a key is blocked (429 saying how long), once its audit row is stored. */
  async function refuse(wait: number, email: string | null, ctx: RequestContext, now: Date): Promise<never> {
    await runChange(db, (change) => throttle.noteRefused(change, wait, email, ctx, now));
    throw TooManyRequests(tooManyAttemptsMessage(wait), wait);
  }

  /** Past the limit, a key is blocked for a while: say how long, and note the attempt. */
  async function refuseIfThrottled(keys: string[], email: string | null, ctx: RequestContext, now: Date) {
    const wait = await throttle.waitSeconds(keys, now);
    if (wait > 0) await refuse(wait, email, ctx, now);
  }

  /** Counts a failed attempt against `keys`, with its audit row. */
  function recordFailure(
    keys: string[],
    email: string | null,
    ctx: RequestContext,
    now: Date,
    details: Record<string, string>,
  ): Promise<Map<string, number>> {
    return runChange(db, (change) => throttle.recordFailure(change, keys, email, ctx, now, details));
  }

  return {
    /**
     * Checks the credentials and opens a new session (a new token every time; the one the browser held
     * before, if any, is revoked). Wrong password, unknown e-mail and disabled account fail alike. The
     * limits counted depend on whether this browser signed in to the account before (throttle.ts); a
     * success makes it one of the account's devices and answers the new token for its device cookie.
     * A one-time password an admin made is let in even while the limits refuse everything else: it is
     * the way back in that no stranger's failures can close (decision 063).
     */
    async signIn(
      credentials: { email: string; password: string },
      ctx: RequestContext & { previousToken?: string | undefined; deviceToken?: string | undefined },
    ): Promise<SignInResult & { deviceToken: string }> {
      const now = clock();
      const email = normalizeEmail(credentials.email);
      const user = await repo.findUserByEmail(email);
      const deviceHash = user && (await devices.trustedHash(ctx.deviceToken, user.id, now));
      // The counter a success clears: this browser's, or the account's at this address.
      const ownKey =
        user && deviceHash ? throttleKeys.device(user.id, deviceHash) : throttleKeys.accountAtAddress(email, ctx.ip);
      const keys = deviceHash ? [ownKey] : [ownKey, throttleKeys.address(ctx.ip), throttleKeys.account(email)];

      const wait = await throttle.waitSeconds(keys, now);
      const oneTimeWaiting =
        user !== undefined && user.must_change_password === 1 && !oneTimePasswordExpired(user, now);
      if (wait > 0 && !oneTimeWaiting) await refuse(wait, email, ctx, now);

      const passwordOk = user
        ? await verifyPassword(user.password_hash, credentials.password)
        : (await verifyPassword(await getDummyHash(), credentials.password)) && false;

      // Blocked, and not the one-time password: refused as any blocked attempt is.
      if (wait > 0 && !passwordOk) await refuse(wait, email, ctx, now);
      if (!user || !passwordOk || user.disabled) {
        const reason = !user ? 'unknown_email' : !passwordOk ? 'wrong_password' : 'disabled';
        await runChange(db, async (change) => {
          const counts = await throttle.recordFailure(change, keys, email, ctx, now, {
            reason,
            ...(deviceHash ? { device: 'known' } : {}),
          });
          // Too many failures from a trusted browser (its cookie copied, or a forgetful owner): a
          // stranger's browser from now on, judged by the limits of its address. Nobody is locked out.
          if (user && deviceHash && (counts.get(ownKey) ?? 0) >= THROTTLE.deviceLimit) {
            await createTrustedDevices(change.trx).distrust(deviceHash, user.id);
            await createAuthRepository(change.trx).clearThrottle(ownKey);
          }
        });
        throw Unauthorized(authMessages.invalidCredentials);
      }
      if (oneTimePasswordExpired(user, now)) {
        // The right one-time password, too late: not a guess, so not counted; the person is told why.
        await recordFailure([], email, ctx, now, { reason: 'one_time_password_expired' });
        throw Unauthorized(authMessages.oneTimePasswordExpired);
      }
      // Hashed before the change: its transaction does not wait for argon2.
      const rehashed = needsRehash(user.password_hash) ? await hashPassword(credentials.password) : undefined;
      const secondFactor = await owedSecondFactor(user);
      return runChange(db, async (change) => {
        if (rehashed) await createAuthRepository(change.trx).updatePasswordHash(user.id, rehashed, now);
        // The whole account's counter is not reset: an attacker's failures elsewhere must not be forgiven
        // because the owner came in.
        const details = wait > 0 ? { throttled: 'one_time_password' } : null;
        const result = await sessions.open(change, user, ctx, now, [ownKey], details, secondFactor);
        return { ...result, deviceToken: await createTrustedDevices(change.trx).trust(ctx.deviceToken, user.id, now) };
      });
    },

    /**
     * Opens a session for a person Firebase Auth has signed in. `verify` checks the ID token and answers
     * the e-mail it proves; our own account of that e-mail (enabled) decides who they are here, and our
     * lists what they may open. Every refusal reads like a wrong password; only the log says why.
     * Failures count against the address (Firebase itself slows down password guesses per account).
     */
    async signInWithFirebase(
      verify: () => Promise<FirebaseIdentity>,
      ctx: RequestContext & { previousToken?: string | undefined; log: Pick<FastifyBaseLogger, 'info' | 'warn'> },
    ): Promise<SignInResult> {
      const now = clock();
      const addressKey = throttleKeys.address(ctx.ip);
      await refuseIfThrottled([addressKey], null, ctx, now);

      let identity: FirebaseIdentity;
      try {
        identity = await verify();
      } catch (error) {
        if (!(error instanceof FirebaseTokenError)) throw error;
        if (error.keysUnavailable) {
          ctx.log.warn({ reason: error.reason }, 'firebase signing keys unavailable');
          throw ServiceUnavailable(authMessages.providerUnavailable);
        }
        ctx.log.info({ reason: error.reason }, 'firebase token refused');
        await recordFailure([addressKey], null, ctx, now, { provider: 'firebase', reason: 'invalid_token' });
        throw Unauthorized(authMessages.invalidCredentials);
      }

      const email = normalizeEmail(identity.email);
      const user = await repo.findUserByEmail(email);
      if (!user || user.disabled) {
        const reason = !user ? 'unknown_email' : 'disabled';
        ctx.log.info({ reason }, 'firebase sign-in refused');
        await recordFailure([addressKey], email, ctx, now, { provider: 'firebase', reason });
        throw Unauthorized(authMessages.invalidCredentials);
      }
      // The address counter is not reset by a success, as with passwords: one good account must not
      // buy unlimited tries for others.
      const secondFactor = await owedSecondFactor(user);
      return runChange(db, (change) =>
        sessions.open(change, user, ctx, now, [], { provider: 'firebase' }, secondFactor),
      );
    },

    /**
     * The signed-in person replaces their password. After a one-time password the session is the proof
     * (it was opened with that password, after it was set: nothing is typed twice); otherwise the current
     * password is checked, throttled per account at this address and per address, like a sign-in (no
     * side door for guessing; the whole account's counter is not counted, so that nobody can keep the
     * owner from changing it). Every other session of the account ends, this one stays, and no browser
     * but this one stays trusted.
     */
    async changePassword(
      user: SessionUser,
      body: { currentPassword?: string | undefined; newPassword: string },
      ctx: RequestContext & { token: string | undefined; deviceToken: string | undefined },
    ): Promise<SessionUser> {
      const now = clock();
      const row = await repo.findUserById(user.id);
      if (!row) throw Unauthorized(authMessages.signInRequired);
      checkNewPassword(body.newPassword);
      const oneTime = row.must_change_password === 1;
      if (oneTime) {
        if (oneTimePasswordExpired(row, now)) throw BadRequest(authMessages.oneTimePasswordExpired);
        // A session opened before this one-time password was set (with the password it replaced) proves
        // nothing about it.
        const openedAt = ctx.token ? await repo.sessionOpenedAt(user.id, hashToken(ctx.token)) : undefined;
        const setAt = row.password_expires_at
          ? new Date(Date.parse(row.password_expires_at) - ONE_TIME_PASSWORD_MS).toISOString()
          : '';
        if (!openedAt || openedAt < setAt) throw BadRequest(authMessages.signInAgain);
      } else {
        if (!body.currentPassword) throw BadRequest(authMessages.currentPasswordRequired);
        const keys = [throttleKeys.accountAtAddress(user.email, ctx.ip), throttleKeys.address(ctx.ip)];
        await refuseIfThrottled(keys, user.email, ctx, now);
        if (!(await verifyPassword(row.password_hash, body.currentPassword))) {
          await recordFailure(keys, user.email, ctx, now, { reason: 'password_change' });
          throw BadRequest(authMessages.currentPasswordWrong);
        }
      }
      if (await verifyPassword(row.password_hash, body.newPassword)) throw BadRequest(authMessages.samePassword);
      const passwordHash = await hashPassword(body.newPassword);
      await runChange(db, async ({ trx, audit }) => {
        const r = createAuthRepository(trx);
        await r.updatePasswordHash(user.id, passwordHash, now, { mustChange: false, expiresAt: null });
        const ended = ctx.token ? await r.deleteOtherSessions(user.id, hashToken(ctx.token)) : 0;
        const devicesForgotten = await createTrustedDevices(trx).forgetAll(user.id, ctx.deviceToken);
        await audit({
          actorEmail: user.email,
          action: 'auth.password_change',
          target: user.email,
          ip: ctx.ip,
          details: { oneTimePassword: oneTime, sessionsEnded: ended, devicesForgotten },
          at: now,
        });
      });
      return { ...user, mustChangePassword: false };
    },

    /** Ends the session of this token (the sign-out), audited when it was someone's. */
    signOut(token: string | undefined, user: SessionUser | null, ctx: RequestContext): Promise<void> {
      return runChange(db, (change) => sessions.signOut(change, token, user, ctx));
    },

    /** "Cerrar sesión en todos los dispositivos", asked by the person for themselves. */
    endEverywhere(user: SessionUser, actor: Actor): Promise<number> {
      return runChange(db, (change) => sessions.endEverywhere(change, user, actor, 'auth.logout_all'));
    },
  };
}
export type SignInService = ReturnType<typeof createSignInService>;
