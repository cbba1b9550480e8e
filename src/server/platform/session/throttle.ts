import type { Kysely } from 'kysely';
import { writeAudit } from '#server/platform/audit/audit.repository';
import type { Database } from '#server/platform/db/schema';
import { TooManyRequests } from '#server/platform/http/errors';
import { tooManyAttemptsMessage } from '#shared/platform/session';
import type { RequestContext } from './identity';
import { createAuthRepository } from './session.repository';

/**
 * Sign-in slowdown (docs/decisions/052). Failures are counted per key in the database (shared by every
 * instance) within a window; past a key's limit, each further failure blocks it for twice as long.
 * An attempt counts against:
 * - from a browser the account signed in from before (device cookie): that browser, for that account;
 * - from any other browser: the account at this address (strict), this address for every account,
 *   and the whole account, whose limit is wider, so that guesses spread over many addresses still stop.
 * The owner's own browser is never subject to the last two: failing on purpose elsewhere cannot keep
 * them out.
 */
export const THROTTLE = {
  windowMs: 60 * 60 * 1000,
  accountAtAddressLimit: 5,
  addressLimit: 20,
  accountLimit: 10,
  deviceLimit: 5,
  firstBlockMs: 30 * 1000,
  maxBlockMs: 15 * 60 * 1000,
} as const;

/** The counters' keys, each with its limit. */
export const throttleKeys = {
  accountAtAddress: (email: string, ip: string | null) => `email-ip:${email}|${ip ?? 'desconocida'}`,
  address: (ip: string | null) => `ip:${ip ?? 'desconocida'}`,
  account: (email: string) => `email:${email}`,
  device: (deviceTokenHash: string) => `device:${deviceTokenHash}`,
};

export function limitOf(key: string): number {
  if (key.startsWith('email-ip:')) return THROTTLE.accountAtAddressLimit;
  if (key.startsWith('ip:')) return THROTTLE.addressLimit;
  if (key.startsWith('email:')) return THROTTLE.accountLimit;
  return THROTTLE.deviceLimit;
}

export function blockDurationMs(failures: number, limit: number): number {
  if (failures < limit) return 0;
  return Math.min(THROTTLE.maxBlockMs, THROTTLE.firstBlockMs * 2 ** Math.min(20, failures - limit));
}

/** The sign-in slowdown's counters, kept in the database and shared by every instance. */
export function createThrottle(db: Kysely<Database>) {
  const repo = createAuthRepository(db);
  return {
    /** Past the limit, a key is blocked for a while: say how long, and note the attempt. */
    async refuseIfThrottled(keys: string[], email: string | null, ctx: RequestContext, now: Date) {
      const throttles = await repo.findThrottles(keys);
      const blockedUntil = Math.max(0, ...throttles.map((t) => (t.blocked_until ? Date.parse(t.blocked_until) : 0)));
      if (blockedUntil <= now.getTime()) return;
      const waitSeconds = (blockedUntil - now.getTime()) / 1000;
      await writeAudit(db, {
        actorEmail: email,
        action: 'auth.login_throttled',
        ip: ctx.ip,
        details: { blockedUntil: new Date(blockedUntil).toISOString() },
        at: now,
      });
      throw TooManyRequests(tooManyAttemptsMessage(waitSeconds), waitSeconds);
    },

    /** Counts a failed sign-in against each key (blocking those past their limit) and audits it. */
    async recordFailure(
      keys: string[],
      email: string | null,
      ctx: RequestContext,
      now: Date,
      details: Record<string, string>,
    ) {
      const nowIso = now.toISOString();
      const cutoff = new Date(now.getTime() - THROTTLE.windowMs).toISOString();
      // One transaction per attempt: a single disk sync for all its bookkeeping.
      await db.transaction().execute(async (trx) => {
        const r = createAuthRepository(trx);
        for (const key of keys) {
          const failures = await r.countFailure(key, nowIso, cutoff);
          const block = blockDurationMs(failures, limitOf(key));
          if (block > 0) await r.setBlockedUntil(key, new Date(now.getTime() + block).toISOString());
        }
        await writeAudit(trx, { actorEmail: email, action: 'auth.login_failed', ip: ctx.ip, details, at: now });
      });
    },
  };
}
