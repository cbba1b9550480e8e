import type { Kysely } from 'kysely';
import { createAccessCache } from '#server/platform/cache/cache';
import type { Change } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { hashToken, isTokenShaped, newToken } from './cookie-tokens';
import type { Actor, RequestContext, SessionUser } from './identity';
import { createAuthRepository, type SessionLookup, type UserRow } from './session.repository';
import { THROTTLE } from './throttle';
import { createTrustedDevices } from './trusted-devices';

/** A session ends after this long without use... */
export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;
/** ...and after this long in any case. */
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** The idle expiry is moved forward at most once a minute, so reads stay reads. */
const SESSION_TOUCH_MS = 60 * 1000;

export interface SignInResult {
  token: string;
  user: SessionUser;
  expiresAt: Date;
}

export const toSessionUser = (u: Pick<UserRow, 'id' | 'email' | 'role' | 'must_change_password'>): SessionUser => ({
  id: u.id,
  email: u.email,
  role: u.role,
  mustChangePassword: u.must_change_password === 1,
});

/**
 * Sessions: opened by the sign-in flows, checked on every request, ended at sign-out, pruned. What opens
 * or ends one with an audit row is a step of a change the auth and people use cases run (runChange,
 * docs/decisions/072); keeping an active session from going idle and pruning dead ones write no audit
 * row and run alone.
 */
export function createSessionService(db: Kysely<Database>, clock: () => Date) {
  const repo = createAuthRepository(db);
  // Live sessions, while nothing that could end one has changed (cache.ts).
  const liveSessions = createAccessCache<SessionLookup | undefined>(db, {
    keep: (found) => found !== undefined,
    fresh: (found) => {
      const nowIso = clock().toISOString();
      return found !== undefined && found.expires_at > nowIso && found.idle_expires_at > nowIso;
    },
  });
  return {
    /**
     * A new session (a new token every time; the one the browser held before, if any, is revoked), the
     * last sign-in time and the audit row. `clearKeys` are throttle counters a success resets.
     */
    async open(
      change: Change,
      user: UserRow,
      ctx: RequestContext & { previousToken?: string | undefined },
      now: Date,
      clearKeys: string[],
      details: Record<string, string> | null,
      secondFactor: 'verify' | 'enrol' | null = null,
    ): Promise<SignInResult> {
      const nowIso = now.toISOString();
      const token = newToken();
      const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
      const r = createAuthRepository(change.trx);
      for (const key of clearKeys) await r.clearThrottle(key);
      if (isTokenShaped(ctx.previousToken)) {
        await r.deleteSessionByHash(hashToken(ctx.previousToken));
      }
      await r.insertSession({
        tokenHash: hashToken(token),
        userId: user.id,
        createdAt: nowIso,
        expiresAt: expiresAt.toISOString(),
        idleExpiresAt: new Date(Math.min(now.getTime() + SESSION_IDLE_MS, expiresAt.getTime())).toISOString(),
        ip: ctx.ip?.slice(0, 100) ?? null,
        userAgent: ctx.userAgent?.slice(0, 300) ?? null,
        secondFactor,
      });
      await r.setLastLogin(user.id, now);
      const audited = secondFactor ? { ...details, secondFactor } : details;
      await change.audit({ actorEmail: user.email, action: 'auth.login', ip: ctx.ip, details: audited, at: now });
      return { token, user: { ...toSessionUser(user), secondFactor }, expiresAt };
    },

    /** The user of a live session token, or null. Keeps an active session from going idle. */
    async authenticate(token: string | undefined): Promise<SessionUser | null> {
      if (!isTokenShaped(token)) return null;
      const now = clock();
      const tokenHash = hashToken(token);
      const found = await liveSessions(tokenHash, () => repo.findLiveSession(tokenHash, now.toISOString()));
      if (!found) return null;
      const idleTarget = Math.min(now.getTime() + SESSION_IDLE_MS, Date.parse(found.expires_at));
      if (idleTarget - Date.parse(found.idle_expires_at) > SESSION_TOUCH_MS) {
        const idleExpiresAt = new Date(idleTarget).toISOString();
        await repo.extendSession(found.session_id, idleExpiresAt);
        // The kept answer may be this very row: it stays live until the new idle expiry.
        found.idle_expires_at = idleExpiresAt;
      }
      return {
        id: found.user_id,
        email: found.email,
        role: found.role,
        mustChangePassword: found.must_change_password === 1,
        secondFactor: found.second_factor,
      };
    },

    /** Ends the session of this token, with its audit row when it was someone's. */
    async signOut(
      change: Change,
      token: string | undefined,
      user: SessionUser | null,
      ctx: RequestContext,
    ): Promise<void> {
      if (isTokenShaped(token)) await createAuthRepository(change.trx).deleteSessionByHash(hashToken(token));
      if (user) await change.audit({ actorEmail: user.email, action: 'auth.logout', ip: ctx.ip, at: clock() });
    },

    /**
     * "Cerrar sesión en todos los dispositivos": every session of the account ends (its open live
     * streams close with them) and no browser stays one of its devices (throttle.ts). The person asks it
     * for themselves (`auth.logout_all`) or an admin for them (`user.sessions_end`). Answers how many
     * sessions ended.
     */
    async endEverywhere(
      change: Change,
      user: { id: number; email: string },
      actor: Actor,
      action: 'auth.logout_all' | 'user.sessions_end',
    ): Promise<number> {
      const now = clock();
      const ended = await createAuthRepository(change.trx).deleteSessionsOfUser(user.id);
      const devicesForgotten = await createTrustedDevices(change.trx).forgetAll(user.id);
      await change.audit({
        actorEmail: actor.email,
        action,
        target: user.email,
        ip: actor.ip,
        details: { sessionsEnded: ended, devicesForgotten },
        at: now,
      });
      return ended;
    },

    /** Removes dead sessions, finished throttle windows and devices unused for long (housekeeping). */
    async prune(): Promise<void> {
      const now = clock();
      await repo.deleteDeadSessions(now.toISOString());
      await createTrustedDevices(db).prune(now);
      await repo.deleteStaleThrottles(new Date(now.getTime() - THROTTLE.windowMs).toISOString(), now.toISOString());
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
