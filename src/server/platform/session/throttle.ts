import type { Kysely } from 'kysely';
import type { Change } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import type { RequestContext } from './identity';
import { createAuthRepository } from './session.repository';

/**
 * Sign-in slowdown (docs/decisions/052, whose account-wide block 063 replaced). Failures are counted per
 * key in the database (shared by every instance) within a window; past a key's limit, each further
 * failure blocks it for twice as long. An attempt counts against:
 * - from a browser the account signed in from before (device cookie): that browser, for that account.
 *   It is never blocked: past its limit it stops being one of the account's (sign-in.service.ts), and
 *   from then on it is any other browser;
 * - from any other browser: the account at this address (strict), this address for every account, and
 *   the whole account. The whole account is never blocked (that would let a stranger keep its owner
 *   out); past its limit it is under attack, and the account at each address gets one try, not five,
 *   before the doubling waits start.
 */
export const THROTTLE = {
  windowMs: 60 * 60 * 1000,
  accountAtAddressLimit: 5,
  /** The account at an address, while the whole account is under attack. */
  accountAtAddressUnderAttackLimit: 1,
  addressLimit: 20,
  /** Failures on the whole account, from anywhere, that put it under attack. */
  accountLimit: 10,
  /** Failures from a trusted browser after which it is a stranger's. */
  deviceLimit: 5,
  /**
   * Wrong second-factor codes on the whole account, from anywhere, after which its six-digit codes are
   * refused with the doubling waits below (decision 092). Recovery codes are never refused by it.
   */
  secondFactorAccountLimit: 10,
  firstBlockMs: 30 * 1000,
  maxBlockMs: 15 * 60 * 1000,
} as const;

/** The counters' keys. */
export const throttleKeys = {
  accountAtAddress: (email: string, ip: string | null) => `email-ip:${email}|${ip ?? 'desconocida'}`,
  address: (ip: string | null) => `ip:${ip ?? 'desconocida'}`,
  account: (email: string) => `email:${email}`,
  device: (userId: number, deviceTokenHash: string) => `device:${userId}|${deviceTokenHash}`,
  /** Every wrong second-factor code of the account, from any address (decision 092). */
  secondFactorAccount: (email: string) => `second-factor:${email}`,
};

/**
 * After how many failures a key is blocked; the whole account and a device never are. The account's
 * second-factor key is, but only for six-digit codes: its owner's recovery codes still open it.
 */
export function limitOf(key: string, accountUnderAttack: boolean): number {
  if (key.startsWith('email-ip:')) {
    return accountUnderAttack ? THROTTLE.accountAtAddressUnderAttackLimit : THROTTLE.accountAtAddressLimit;
  }
  if (key.startsWith('ip:')) return THROTTLE.addressLimit;
  if (key.startsWith('second-factor:')) return THROTTLE.secondFactorAccountLimit;
  return Number.POSITIVE_INFINITY;
}

export function blockDurationMs(failures: number, limit: number): number {
  if (failures < limit) return 0;
  return Math.min(THROTTLE.maxBlockMs, THROTTLE.firstBlockMs * 2 ** Math.min(20, failures - limit));
}

/**
 * The sign-in slowdown's counters, kept in the database and shared by every instance. A refused or
 * failed attempt is noted by a step of a change the sign-in use cases run (runChange, docs/decisions/072)
 * and committed before the attempt is answered: the refusal's own error must not roll it back.
 */
export function createThrottle(db: Kysely<Database>) {
  const repo = createAuthRepository(db);
  return {
    /** Seconds until every one of these keys is free again; 0 when none is blocked. */
    async waitSeconds(keys: string[], now: Date): Promise<number> {
      const throttles = await repo.findThrottles(keys);
      const blockedUntil = Math.max(0, ...throttles.map((t) => (t.blocked_until ? Date.parse(t.blocked_until) : 0)));
      return Math.max(0, (blockedUntil - now.getTime()) / 1000);
    },

    /** The audit row of an attempt refused while a key is blocked for `wait` seconds. */
    async noteRefused(change: Change, wait: number, email: string | null, ctx: RequestContext, now: Date) {
      await change.audit({
        actorEmail: email,
        action: 'auth.login_throttled',
        ip: ctx.ip,
        details: { blockedUntil: new Date(now.getTime() + wait * 1000).toISOString() },
        at: now,
      });
    },

    /**
     * Counts a failed sign-in against each key (blocking those past their limit) and audits it. Answers
     * each key's failures in the window.
     */
    async recordFailure(
      change: Change,
      keys: string[],
      email: string | null,
      ctx: RequestContext,
      now: Date,
      details: Record<string, string>,
    ): Promise<Map<string, number>> {
      const nowIso = now.toISOString();
      const cutoff = new Date(now.getTime() - THROTTLE.windowMs).toISOString();
      const counts = new Map<string, number>();
      // One transaction per attempt: a single disk sync for all its bookkeeping. The whole account's
      // counter first: whether it is under attack sets the limit of the account at this address.
      const ordered = [...keys.filter((k) => k.startsWith('email:')), ...keys.filter((k) => !k.startsWith('email:'))];
      const r = createAuthRepository(change.trx);
      let underAttack = false;
      for (const key of ordered) {
        const failures = await r.countFailure(key, nowIso, cutoff);
        counts.set(key, failures);
        if (key.startsWith('email:')) underAttack = failures >= THROTTLE.accountLimit;
        const block = blockDurationMs(failures, limitOf(key, underAttack));
        if (block > 0) await r.setBlockedUntil(key, new Date(now.getTime() + block).toISOString());
      }
      await change.audit({ actorEmail: email, action: 'auth.login_failed', ip: ctx.ip, details, at: now });
      return counts;
    },
  };
}
