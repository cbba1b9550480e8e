import crypto from 'node:crypto';
import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  authMessages,
  isEmailShape,
  normalizeEmail,
  PASSWORD_MAX_LENGTH,
  type Role,
  tooManyAttemptsMessage,
} from '#shared/features/auth/auth';
import { PASSWORD_MIN_LENGTH } from '#shared/platform/constants';
import { createAccessCache } from '#server/platform/cache/change-version';
import type { Database } from '#server/platform/db/schema';
import { createLimiter } from '#server/platform/lib/limiter';
import type { SessionUser } from './session.plugin';
import {
  BadRequest,
  Conflict,
  NotFound,
  ServiceUnavailable,
  TooManyRequests,
  Unauthorized,
} from '#server/platform/http/errors';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { createAuthRepository, type SessionLookup, type UserRow } from './session.repository';
import { type FirebaseIdentity, FirebaseTokenError } from '#server/features/auth/firebase-identity';

/** A session ends after this long without use... */
export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;
/** ...and after this long in any case. */
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** The idle expiry is moved forward at most once a minute, so reads stay reads. */
const SESSION_TOUCH_MS = 60 * 1000;

/**
 * Sign-in slowdown. Failures are counted per account and per address in the database (shared by every
 * instance) within a window; past the limit, each further failure blocks the key for twice as long.
 */
export const THROTTLE = {
  windowMs: 60 * 60 * 1000,
  accountLimit: 5,
  addressLimit: 20,
  firstBlockMs: 30 * 1000,
  maxBlockMs: 15 * 60 * 1000,
} as const;

export interface RequestContext {
  ip: string | null;
  userAgent?: string | null;
}

/** Who makes a change that is audited: a signed-in e-mail or 'cli:<os user>'. */
export interface Actor extends RequestContext {
  email: string | null;
}

// Argon2id is meant to cost CPU time and memory. More hashes at once than cores only makes each one
// slower (they fight over the cores and the cache): at 10 sign-ins at once, 4 running together served
// 150 a second with p99 84 ms, 2 at a time 190 a second. So they take turns, one per core.
const argon2Turns = createLimiter(Math.max(1, os.availableParallelism()));

/**
 * argon2id with 9 MiB and 4 passes: one of the settings OWASP's Password Storage Cheat Sheet lists as
 * giving the same defence as its 19 MiB × 2 baseline, and the one that runs fastest here (decision 016).
 */
export const ARGON2_OPTIONS = { memoryCost: 9216, timeCost: 4, parallelism: 1 } as const;
const ARGON2_PARAMS = `$argon2id$v=19$m=${ARGON2_OPTIONS.memoryCost},t=${ARGON2_OPTIONS.timeCost},p=${ARGON2_OPTIONS.parallelism}$`;

/** A hash made with other settings (an older version's) is made again at the next good sign-in. */
export function needsRehash(passwordHash: string): boolean {
  return !passwordHash.startsWith(ARGON2_PARAMS);
}

export async function hashPassword(password: string): Promise<string> {
  return argon2Turns.run(() => hash(password, ARGON2_OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await argon2Turns.run(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

// Compared against when the e-mail is unknown, so that answer costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;
/** Computes the stand-in hash ahead of time, so even the first unknown e-mail costs one hash, not two. */
export const getDummyHash = () => {
  dummyHash ??= hash(crypto.randomBytes(16).toString('hex'), ARGON2_OPTIONS);
  return dummyHash;
};

// No 0/o, 1/l/i: read aloud or copied by hand without mistakes.
const ONE_TIME_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * A password made by the server for a new account or a reset: three groups of four characters
 * (about 59 bits), shown once to the admin who asked for it and stored only as a hash.
 */
export function generateOneTimePassword(): string {
  const groups: string[] = [];
  for (let g = 0; g < 3; g++) {
    let group = '';
    for (let i = 0; i < 4; i++) group += ONE_TIME_ALPHABET[crypto.randomInt(ONE_TIME_ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

export const newSessionToken = () => crypto.randomBytes(32).toString('base64url');
// One call instead of createHash/update/digest: it runs on every signed-in request.
export const hashSessionToken = (token: string) => crypto.hash('sha256', token, 'hex');
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function blockDurationMs(failures: number, limit: number): number {
  if (failures < limit) return 0;
  return Math.min(THROTTLE.maxBlockMs, THROTTLE.firstBlockMs * 2 ** Math.min(20, failures - limit));
}

export function checkNewPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw BadRequest(authMessages.shortPassword);
  if (password.length > PASSWORD_MAX_LENGTH) {
    throw BadRequest(`La contraseña no puede tener más de ${PASSWORD_MAX_LENGTH} caracteres.`);
  }
}

export function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!isEmailShape(normalized)) throw BadRequest(authMessages.invalidEmail);
  return normalized;
}

export interface SignInResult {
  token: string;
  user: SessionUser;
  expiresAt: Date;
}

export function createAuthService(db: Kysely<Database>, clock: () => Date) {
  const repo = createAuthRepository(db);
  // Live sessions, while nothing that could end one has changed (change-version.ts).
  const liveSessions = createAccessCache<SessionLookup | undefined>(db, {
    keep: (found) => found !== undefined,
    fresh: (found) => {
      const nowIso = clock().toISOString();
      return found !== undefined && found.expires_at > nowIso && found.idle_expires_at > nowIso;
    },
  });
  const toSessionUser = (u: Pick<UserRow, 'id' | 'email' | 'role'>): SessionUser => ({
    id: u.id,
    email: u.email,
    role: u.role,
  });

  async function findUserOrThrow(email: string): Promise<UserRow> {
    const user = await repo.findUserByEmail(normalizeEmail(email));
    if (!user) throw NotFound(`No existe un usuario con el correo ${normalizeEmail(email)}.`);
    return user;
  }

  /** Past the limit, a key is blocked for a while: say how long, and note the attempt. */
  async function refuseIfThrottled(keys: string[], email: string | null, ctx: RequestContext, now: Date) {
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
  }

  /** Counts a failed sign-in against each key (blocking those past their limit) and audits it. */
  async function recordFailure(
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
        const limit = key.startsWith('email:') ? THROTTLE.accountLimit : THROTTLE.addressLimit;
        const failures = await r.countFailure(key, nowIso, cutoff);
        const block = blockDurationMs(failures, limit);
        if (block > 0) await r.setBlockedUntil(key, new Date(now.getTime() + block).toISOString());
      }
      await writeAudit(trx, { actorEmail: email, action: 'auth.login_failed', ip: ctx.ip, details, at: now });
    });
  }

  /**
   * A new session (a new token every time; the one the browser held before, if any, is revoked), the
   * last sign-in time and the audit row. `clearKeys` are throttle counters a success resets.
   */
  async function openSession(
    user: UserRow,
    ctx: RequestContext & { previousToken?: string | undefined },
    now: Date,
    clearKeys: string[],
    details: Record<string, string> | null,
  ): Promise<SignInResult> {
    const nowIso = now.toISOString();
    const token = newSessionToken();
    const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
    await db.transaction().execute(async (trx) => {
      const r = createAuthRepository(trx);
      for (const key of clearKeys) await r.clearThrottle(key);
      if (ctx.previousToken && TOKEN_SHAPE.test(ctx.previousToken)) {
        await r.deleteSessionByHash(hashSessionToken(ctx.previousToken));
      }
      await r.insertSession({
        tokenHash: hashSessionToken(token),
        userId: user.id,
        createdAt: nowIso,
        expiresAt: expiresAt.toISOString(),
        idleExpiresAt: new Date(Math.min(now.getTime() + SESSION_IDLE_MS, expiresAt.getTime())).toISOString(),
        ip: ctx.ip?.slice(0, 100) ?? null,
        userAgent: ctx.userAgent?.slice(0, 300) ?? null,
      });
      await r.setLastLogin(user.id, now);
      await writeAudit(trx, { actorEmail: user.email, action: 'auth.login', ip: ctx.ip, details, at: now });
    });
    return { token, user: toSessionUser(user), expiresAt };
  }

  return {
    /**
     * Checks the credentials and opens a new session (a new token every time; the one the browser held
     * before, if any, is revoked). Wrong password, unknown e-mail and disabled account fail alike.
     */
    async signIn(
      credentials: { email: string; password: string },
      ctx: RequestContext & { previousToken?: string | undefined },
    ): Promise<SignInResult> {
      const now = clock();
      const email = normalizeEmail(credentials.email);
      const accountKey = `email:${email}`;
      const addressKey = `ip:${ctx.ip ?? 'desconocida'}`;

      await refuseIfThrottled([accountKey, addressKey], email, ctx, now);

      const user = await repo.findUserByEmail(email);
      const passwordOk = user
        ? await verifyPassword(user.password_hash, credentials.password)
        : (await verifyPassword(await getDummyHash(), credentials.password)) && false;

      if (!user || !passwordOk || user.disabled) {
        const reason = !user ? 'unknown_email' : !passwordOk ? 'wrong_password' : 'disabled';
        await recordFailure([accountKey, addressKey], email, ctx, now, { reason });
        throw Unauthorized(authMessages.invalidCredentials);
      }
      if (needsRehash(user.password_hash)) {
        await repo.updatePasswordHash(user.id, await hashPassword(credentials.password), now);
      }
      return openSession(user, ctx, now, [accountKey], null);
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
      const addressKey = `ip:${ctx.ip ?? 'desconocida'}`;
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

    /** The user of a live session token, or null. Keeps an active session from going idle. */
    async authenticate(token: string | undefined): Promise<SessionUser | null> {
      if (!token || !TOKEN_SHAPE.test(token)) return null;
      const now = clock();
      const tokenHash = hashSessionToken(token);
      const found = await liveSessions(tokenHash, () => repo.findLiveSession(tokenHash, now.toISOString()));
      if (!found) return null;
      const idleTarget = Math.min(now.getTime() + SESSION_IDLE_MS, Date.parse(found.expires_at));
      if (idleTarget - Date.parse(found.idle_expires_at) > SESSION_TOUCH_MS) {
        const idleExpiresAt = new Date(idleTarget).toISOString();
        await repo.extendSession(found.session_id, idleExpiresAt);
        // The kept answer may be this very row: it stays live until the new idle expiry.
        found.idle_expires_at = idleExpiresAt;
      }
      return { id: found.user_id, email: found.email, role: found.role };
    },

    async signOut(token: string | undefined, user: SessionUser | null, ctx: RequestContext): Promise<void> {
      if (token && TOKEN_SHAPE.test(token)) await repo.deleteSessionByHash(hashSessionToken(token));
      if (user) await writeAudit(db, { actorEmail: user.email, action: 'auth.logout', ip: ctx.ip, at: clock() });
    },

    // --- account management (command line, admin screens) ---------------------------------------------
    async listUsers() {
      const users = await repo.listUsers();
      return users.map((u) => ({
        id: u.id,
        email: u.email,
        role: u.role,
        disabled: u.disabled === 1,
        lastLoginAt: u.last_login_at,
        createdAt: u.created_at,
      }));
    },

    async createUser(input: { email: string; password: string; role: Role }, actor: Actor): Promise<SessionUser> {
      const email = checkEmail(input.email);
      checkNewPassword(input.password);
      if (await repo.findUserByEmail(email)) throw Conflict(`Ya existe un usuario con el correo ${email}.`);
      const now = clock();
      const id = await repo.insertUser(
        { email, passwordHash: await hashPassword(input.password), role: input.role },
        now,
      );
      await writeAudit(db, {
        actorEmail: actor.email,
        action: 'user.create',
        target: email,
        ip: actor.ip,
        details: { role: input.role },
        at: now,
      });
      return { id, email, role: input.role };
    },

    /** Sets a new password and ends every session of the account. Answers how many sessions ended. */
    async setPassword(email: string, password: string, actor: Actor): Promise<number> {
      checkNewPassword(password);
      const user = await findUserOrThrow(email);
      const now = clock();
      await repo.updatePasswordHash(user.id, await hashPassword(password), now);
      const revoked = await repo.deleteSessionsOfUser(user.id);
      await repo.clearThrottle(`email:${user.email}`);
      await writeAudit(db, {
        actorEmail: actor.email,
        action: 'user.password',
        target: user.email,
        ip: actor.ip,
        details: { sessionsRevoked: revoked },
        at: now,
      });
      return revoked;
    },

    /** Disabling ends every session of the account at once. */
    async setDisabled(email: string, disabled: boolean, actor: Actor): Promise<void> {
      const user = await findUserOrThrow(email);
      const now = clock();
      await repo.setDisabled(user.id, disabled, now);
      const revoked = disabled ? await repo.deleteSessionsOfUser(user.id) : 0;
      await writeAudit(db, {
        actorEmail: actor.email,
        action: disabled ? 'user.disable' : 'user.enable',
        target: user.email,
        ip: actor.ip,
        details: disabled ? { sessionsRevoked: revoked } : null,
        at: now,
      });
    },

    async setRole(email: string, role: Role, actor: Actor): Promise<void> {
      const user = await findUserOrThrow(email);
      const now = clock();
      await repo.setRole(user.id, role, now);
      await writeAudit(db, {
        actorEmail: actor.email,
        action: 'user.role',
        target: user.email,
        ip: actor.ip,
        details: { from: user.role, to: role },
        at: now,
      });
    },

    /** Removes dead sessions and finished throttle windows (housekeeping; both are already ignored). */
    async prune(): Promise<void> {
      const now = clock();
      await repo.deleteDeadSessions(now.toISOString());
      await repo.deleteStaleThrottles(new Date(now.getTime() - THROTTLE.windowMs).toISOString(), now.toISOString());
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
