import { type Kysely, type Selectable, type Selection, sql } from 'kysely';
import { preparedQuery } from '#server/platform/db/compiled-query';
import type { Database } from '#server/platform/db/schema';
import type { LoginThrottleTable, UsersTable } from '#server/platform/db/schema-auth';

export interface NewSession {
  tokenHash: string;
  userId: number;
  createdAt: string;
  expiresAt: string;
  idleExpiresAt: string;
  ip: string | null;
  userAgent: string | null;
  /** The second factor this session still owes, if any (migration 026). */
  secondFactor?: 'verify' | 'enrol' | null;
}

const USER_COLUMNS = [
  'id',
  'email',
  'password_hash',
  'role',
  'disabled',
  'must_change_password',
  'password_expires_at',
  'last_login_at',
  'created_at',
  'totp_secret',
] as const;
export type UserRow = Pick<Selectable<UsersTable>, (typeof USER_COLUMNS)[number]>;

const THROTTLE_COLUMNS = ['key', 'failures', 'blocked_until'] as const;
export type ThrottleRow = Pick<Selectable<LoginThrottleTable>, (typeof THROTTLE_COLUMNS)[number]>;

/** What the session check reads: the session's expiries and who it belongs to. */
export const LIVE_SESSION_COLUMNS = [
  'sessions.id as session_id',
  'sessions.idle_expires_at',
  'sessions.expires_at',
  'users.id as user_id',
  'users.email',
  'users.role',
  'users.must_change_password',
  'sessions.second_factor',
] as const;
export type SessionLookup = Selection<Database, 'sessions' | 'users', (typeof LIVE_SESSION_COLUMNS)[number]>;

/**
 * A session is live while neither its absolute nor its idle expiry has passed: the one rule, read by the
 * session check, the list of a person's sessions and the field's phones (features/field).
 */
export const sessionIsLive = (nowIso: string) =>
  sql<boolean>`sessions.expires_at > ${nowIso} and sessions.idle_expires_at > ${nowIso}`;

export function createAuthRepository(db: Kysely<Database>) {
  const liveSession = preparedQuery(db, (tokenHash: string, nowIso: string) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(LIVE_SESSION_COLUMNS)
      .where('sessions.token_hash', '=', tokenHash)
      .where(sessionIsLive(nowIso))
      .where('users.disabled', '=', 0),
  );

  return {
    // --- users ---------------------------------------------------------------------------------------
    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').select(USER_COLUMNS).where('email', '=', email).executeTakeFirst();
    },

    async findUserById(id: number): Promise<UserRow | undefined> {
      return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    async listUsers(): Promise<UserRow[]> {
      return db.selectFrom('users').select(USER_COLUMNS).orderBy('email').execute();
    },

    async insertUser(
      user: {
        email: string;
        passwordHash: string;
        role: 'admin' | 'staff';
        mustChangePassword?: boolean;
        passwordExpiresAt?: string | null;
      },
      now: Date,
    ) {
      const at = now.toISOString();
      const row = await db
        .insertInto('users')
        .values({
          email: user.email,
          password_hash: user.passwordHash,
          role: user.role,
          disabled: 0,
          must_change_password: user.mustChangePassword ? 1 : 0,
          password_expires_at: user.passwordExpiresAt ?? null,
          last_login_at: null,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /**
     * A new password hash. `oneTime` (when given) says whether it is a one-time password, and until when
     * it opens anything (null: it is the person's own); absent, only the hash changes (a rehash).
     */
    async updatePasswordHash(
      userId: number,
      passwordHash: string,
      now: Date,
      oneTime?: { mustChange: boolean; expiresAt: string | null },
    ): Promise<void> {
      await db
        .updateTable('users')
        .set({
          password_hash: passwordHash,
          updated_at: now.toISOString(),
          ...(oneTime === undefined
            ? {}
            : { must_change_password: oneTime.mustChange ? 1 : 0, password_expires_at: oneTime.expiresAt }),
        })
        .where('id', '=', userId)
        .execute();
    },

    /** Ends every session of the account but one (the one that just changed its password). */
    async deleteOtherSessions(userId: number, keepTokenHash: string): Promise<number> {
      const result = await db
        .deleteFrom('sessions')
        .where('user_id', '=', userId)
        .where('token_hash', '!=', keepTokenHash)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async setDisabled(userId: number, disabled: boolean, now: Date): Promise<void> {
      await db
        .updateTable('users')
        .set({ disabled: disabled ? 1 : 0, updated_at: now.toISOString() })
        .where('id', '=', userId)
        .execute();
    },

    async setRole(userId: number, role: 'admin' | 'staff', now: Date): Promise<void> {
      await db.updateTable('users').set({ role, updated_at: now.toISOString() }).where('id', '=', userId).execute();
    },

    async setLastLogin(userId: number, now: Date): Promise<void> {
      await db.updateTable('users').set({ last_login_at: now.toISOString() }).where('id', '=', userId).execute();
    },

    // --- sessions ------------------------------------------------------------------------------------
    async insertSession(s: NewSession): Promise<void> {
      await db
        .insertInto('sessions')
        .values({
          token_hash: s.tokenHash,
          user_id: s.userId,
          created_at: s.createdAt,
          expires_at: s.expiresAt,
          idle_expires_at: s.idleExpiresAt,
          ip: s.ip,
          user_agent: s.userAgent,
          second_factor: s.secondFactor ?? null,
        })
        .execute();
    },

    /** A live session of an enabled user, or undefined. One indexed lookup: it runs on every API call. */
    async findLiveSession(tokenHash: string, nowIso: string): Promise<SessionLookup | undefined> {
      const [row] = await liveSession(tokenHash, nowIso);
      return row;
    },

    async extendSession(sessionId: number, idleExpiresAt: string): Promise<void> {
      await db.updateTable('sessions').set({ idle_expires_at: idleExpiresAt }).where('id', '=', sessionId).execute();
    },

    async deleteSessionByHash(tokenHash: string): Promise<void> {
      await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    },

    /** When the session of this token was opened, if it is one of this account's. */
    async sessionOpenedAt(userId: number, tokenHash: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('sessions')
        .select('created_at')
        .where('token_hash', '=', tokenHash)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.created_at;
    },

    /** The account's live sessions, newest first: what 'Sesiones abiertas' lists. */
    async liveSessionsOf(userId: number, nowIso: string) {
      return db
        .selectFrom('sessions')
        .select(['id', 'token_hash', 'created_at', 'idle_expires_at', 'expires_at', 'ip', 'user_agent'])
        .where('user_id', '=', userId)
        .where(sessionIsLive(nowIso))
        .orderBy('id', 'desc')
        .execute();
    },

    /** Ends one session of this account (not anyone else's): false if there is none by that id. */
    async deleteSessionOf(userId: number, sessionId: number): Promise<boolean> {
      const result = await db
        .deleteFrom('sessions')
        .where('id', '=', sessionId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async deleteSessionsOfUser(userId: number): Promise<number> {
      const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async deleteDeadSessions(nowIso: string): Promise<number> {
      const result = await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_at', '<=', nowIso), eb('idle_expires_at', '<=', nowIso)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    // --- sign-in throttling --------------------------------------------------------------------------
    async findThrottles(keys: string[]): Promise<ThrottleRow[]> {
      return db.selectFrom('login_throttle').select(THROTTLE_COLUMNS).where('key', 'in', keys).execute();
    },

    /**
     * Counts one failure for a key, atomically (several instances may count at once). A window that
     * started before `windowCutoffIso` starts again at one.
     */
    async countFailure(key: string, nowIso: string, windowCutoffIso: string): Promise<number> {
      const row = await db
        .insertInto('login_throttle')
        .values({ key, failures: 1, window_started_at: nowIso, blocked_until: null })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet((eb) => ({
            failures: eb
              .case()
              .when('login_throttle.window_started_at', '<', windowCutoffIso)
              .then(1)
              .else(eb('login_throttle.failures', '+', 1))
              .end(),
            window_started_at: eb
              .case()
              .when('login_throttle.window_started_at', '<', windowCutoffIso)
              .then(nowIso)
              .else(eb.ref('login_throttle.window_started_at'))
              .end(),
          })),
        )
        .returning('failures')
        .executeTakeFirstOrThrow();
      return Number(row.failures);
    },

    async setBlockedUntil(key: string, blockedUntilIso: string): Promise<void> {
      // Never shortens a block another instance has just set.
      await db
        .updateTable('login_throttle')
        .set({ blocked_until: blockedUntilIso })
        .where('key', '=', key)
        .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', blockedUntilIso)]))
        .execute();
    },

    async deleteStaleThrottles(windowCutoffIso: string, nowIso: string): Promise<void> {
      await db
        .deleteFrom('login_throttle')
        .where('window_started_at', '<', windowCutoffIso)
        .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', nowIso)]))
        .execute();
    },

    async clearThrottle(key: string): Promise<void> {
      await db.deleteFrom('login_throttle').where('key', '=', key).execute();
    },
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;
