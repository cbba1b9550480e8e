import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { hashToken, hostCookieName, isHttps, isTokenShaped, newToken } from './cookie-tokens';

/**
 * Device cookies (OWASP's defence against lockout abuse, docs/decisions/052 and 063). A browser that
 * signed in to an account gets a random token in a long-lived cookie; the server keeps its sha256 with
 * the account. Failed attempts from that browser, for that account, are counted against the browser:
 * someone failing on purpose elsewhere cannot keep the owner out. Too many of them and the browser stops
 * being one of the account's (a copied cookie buys a few guesses once, and locks nobody out); every good
 * sign-in gives the browser a new token, so a copy taken before is worth nothing after it.
 */

/** A browser not used to sign in to an account for this long stops being one of its devices. */
export const DEVICE_TRUST_MS = 180 * 24 * 60 * 60 * 1000;
const DEVICE_COOKIE = 'comando_dispositivo';

/** The browser's device token, when it holds one of the right shape. */
export function readDeviceToken(request: FastifyRequest): string | undefined {
  const token = request.cookies[hostCookieName(request.server, DEVICE_COOKIE)];
  return isTokenShaped(token) ? token : undefined;
}

export function setDeviceCookie(reply: FastifyReply, token: string): void {
  reply.setCookie(hostCookieName(reply.server, DEVICE_COOKIE), token, {
    path: '/',
    httpOnly: true,
    // Only ever read by the sign-in itself, a same-site request.
    sameSite: 'strict',
    secure: isHttps(reply.server),
    maxAge: Math.floor(DEVICE_TRUST_MS / 1000),
  });
}

export function createTrustedDevices(db: Kysely<Database>) {
  return {
    /**
     * When this browser signed in to the account before (and not too long ago): its token's hash, which
     * names its sign-in counter. Otherwise undefined.
     */
    async trustedHash(token: string | undefined, userId: number, now: Date): Promise<string | undefined> {
      if (!isTokenShaped(token)) return undefined;
      const tokenHash = hashToken(token);
      const row = await db
        .selectFrom('trusted_devices')
        .select('last_used_at')
        .where('token_hash', '=', tokenHash)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row && Date.parse(row.last_used_at) > now.getTime() - DEVICE_TRUST_MS ? tokenHash : undefined;
    },

    /**
     * After a good sign-in: the browser becomes (or stays) one of the account's devices, under a new
     * token that also carries whatever other accounts trusted its old one (a shared phone). Answers the
     * token its cookie must hold. Two writes: give it the transaction of the sign-in's change.
     */
    async trust(token: string | undefined, userId: number, now: Date): Promise<string> {
      const fresh = newToken();
      const nowIso = now.toISOString();
      if (isTokenShaped(token)) {
        await db
          .updateTable('trusted_devices')
          .set({ token_hash: hashToken(fresh) })
          .where('token_hash', '=', hashToken(token))
          .execute();
      }
      await db
        .insertInto('trusted_devices')
        .values({ token_hash: hashToken(fresh), user_id: userId, created_at: nowIso, last_used_at: nowIso })
        .onConflict((oc) => oc.columns(['token_hash', 'user_id']).doUpdateSet({ last_used_at: nowIso }))
        .execute();
      return fresh;
    },

    /** Too many failures from this browser: it is a stranger's for the account from now on. */
    async distrust(tokenHash: string, userId: number): Promise<void> {
      await db
        .deleteFrom('trusted_devices')
        .where('token_hash', '=', tokenHash)
        .where('user_id', '=', userId)
        .execute();
    },

    /**
     * "Cerrar sesión en todos los dispositivos", or a password an admin set: no browser is trusted for
     * the account any more. A person's own password change keeps the browser it was made on (`keep`).
     */
    async forgetAll(userId: number, keep?: string): Promise<number> {
      let query = db.deleteFrom('trusted_devices').where('user_id', '=', userId);
      if (isTokenShaped(keep)) query = query.where('token_hash', '!=', hashToken(keep));
      const result = await query.executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Housekeeping: browsers unused for longer than the trust lasts. */
    async prune(now: Date): Promise<void> {
      await db
        .deleteFrom('trusted_devices')
        .where('last_used_at', '<', new Date(now.getTime() - DEVICE_TRUST_MS).toISOString())
        .execute();
    },
  };
}
export type TrustedDevices = ReturnType<typeof createTrustedDevices>;
