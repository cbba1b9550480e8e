import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { writeAudit } from '#server/platform/audit/audit.repository';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, ServiceUnavailable, Unauthorized } from '#server/platform/http/errors';
import { hashToken } from '#server/platform/session/cookie-tokens';
import type { RequestContext, SessionUser } from '#server/platform/session/identity';
import { getDummyHash, hashPassword, needsRehash, verifyPassword } from '#server/platform/session/passwords';
import { createAuthRepository } from '#server/platform/session/session.repository';
import { createSessionService, type SignInResult } from '#server/platform/session/session.service';
import { createThrottle, throttleKeys } from '#server/platform/session/throttle';
import { createTrustedDevices } from '#server/platform/session/trusted-devices';
import { normalizeEmail } from '#shared/platform/email';
import { authMessages } from '#shared/platform/session';
import { type FirebaseIdentity, FirebaseTokenError } from './firebase-identity';

/** The two ways in: our own password, or a Firebase ID token. Both end in a session of our own. */
export function createSignInService(db: Kysely<Database>, clock: () => Date) {
  const repo = createAuthRepository(db);
  const sessions = createSessionService(db, clock);
  const throttle = createThrottle(db);
  const devices = createTrustedDevices(db);
  const refuseIfThrottled = throttle.refuseIfThrottled;
  const recordFailure = throttle.recordFailure;
  const openSession = sessions.open;

  return {
    /**
     * Checks the credentials and opens a new session (a new token every time; the one the browser held
     * before, if any, is revoked). Wrong password, unknown e-mail and disabled account fail alike. The
     * limits counted depend on whether this browser signed in to the account before (throttle.ts); a
     * success makes it one of the account's devices and answers the token for its device cookie.
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
      const ownKey = deviceHash ? throttleKeys.device(deviceHash) : throttleKeys.accountAtAddress(email, ctx.ip);
      const keys = deviceHash ? [ownKey] : [ownKey, throttleKeys.address(ctx.ip), throttleKeys.account(email)];

      await refuseIfThrottled(keys, email, ctx, now);

      const passwordOk = user
        ? await verifyPassword(user.password_hash, credentials.password)
        : (await verifyPassword(await getDummyHash(), credentials.password)) && false;

      if (!user || !passwordOk || user.disabled) {
        const reason = !user ? 'unknown_email' : !passwordOk ? 'wrong_password' : 'disabled';
        await recordFailure(keys, email, ctx, now, { reason, ...(deviceHash ? { device: 'known' } : {}) });
        throw Unauthorized(authMessages.invalidCredentials);
      }
      if (needsRehash(user.password_hash)) {
        await repo.updatePasswordHash(user.id, await hashPassword(credentials.password), now);
      }
      // The whole account's counter is not reset: an attacker's failures elsewhere must not be forgiven
      // because the owner came in.
      const result = await openSession(user, ctx, now, [ownKey], null);
      return { ...result, deviceToken: await devices.trust(ctx.deviceToken, user.id, now) };
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
      return openSession(user, ctx, now, [], { provider: 'firebase' });
    },

    /**
     * The signed-in person replaces their password, proving the current one (throttled per account at
     * this address and per address, like a sign-in: this is no side door for guessing; the whole
     * account's limit is not counted, so that nobody can keep the owner from changing it). A one-time
     * password stops being one; every other session of the account ends, this one stays.
     */
    async changePassword(
      user: SessionUser,
      body: { currentPassword: string; newPassword: string },
      ctx: RequestContext & { token: string | undefined },
    ): Promise<SessionUser> {
      const now = clock();
      const keys = [throttleKeys.accountAtAddress(user.email, ctx.ip), throttleKeys.address(ctx.ip)];
      await refuseIfThrottled(keys, user.email, ctx, now);
      const row = await repo.findUserById(user.id);
      if (!row || !(await verifyPassword(row.password_hash, body.currentPassword))) {
        await recordFailure(keys, user.email, ctx, now, { reason: 'password_change' });
        throw BadRequest(authMessages.currentPasswordWrong);
      }
      await repo.updatePasswordHash(user.id, await hashPassword(body.newPassword), now, false);
      const ended = ctx.token ? await repo.deleteOtherSessions(user.id, hashToken(ctx.token)) : 0;
      await writeAudit(db, {
        actorEmail: user.email,
        action: 'auth.password_change',
        target: user.email,
        ip: ctx.ip,
        details: { oneTimePassword: row.must_change_password === 1, sessionsEnded: ended },
        at: now,
      });
      return { ...user, mustChangePassword: false };
    },
  };
}
