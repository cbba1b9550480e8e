import type { Kysely } from 'kysely';
import { type Change, runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, Conflict, NotFound } from '#server/platform/http/errors';
import type { Actor, SessionUser } from '#server/platform/session/identity';
import { checkEmail, checkNewPassword, hashPassword, ONE_TIME_PASSWORD_MS } from '#server/platform/session/passwords';
import { resetSecondFactor } from '#server/platform/session/second-factor';
import { createAuthRepository, type UserRow } from '#server/platform/session/session.repository';
import { throttleKeys } from '#server/platform/session/throttle';
import { createTrustedDevices } from '#server/platform/session/trusted-devices';
import { secondFactorMessages } from '#shared/features/auth/second-factor';
import { peopleMessages } from '#shared/features/people/people';
import { normalizeEmail } from '#shared/platform/email';
import { normalisePhone } from '#shared/platform/phone';
import type { Role } from '#shared/platform/session';
import { createAdminPeopleRepository } from './people.repository';

/**
 * The stored hash of an account without a password of ours (Firebase Auth checks it): no password
 * verifies against it, so it cannot sign in here.
 */
export const NO_LOCAL_PASSWORD = '!firebase';

/** With Firebase Auth, passwords live there: this server neither asks for nor changes them. */
export const FIREBASE_PASSWORDS = 'Con Firebase Auth las contraseñas se cambian en Firebase, no en Comando.';

/**
 * Accounts, for the command line and the admin screens: create, password, disable, role. `hash` is
 * argon2id (passwords.ts); test data builders pass one that reuses a hash made ahead of time.
 */
export function createAccountsService(
  db: Kysely<Database>,
  clock: () => Date,
  hash: (password: string) => Promise<string> = hashPassword,
) {
  const repo = createAuthRepository(db);
  /** A one-time password opens nothing after ONE_TIME_PASSWORD_MS (decision 063). */
  const oneTimeExpiry = (oneTime: boolean | undefined, now: Date) =>
    oneTime ? new Date(now.getTime() + ONE_TIME_PASSWORD_MS).toISOString() : null;
  async function findUserOrThrow(email: string): Promise<UserRow> {
    const user = await repo.findUserByEmail(normalizeEmail(email));
    if (!user) throw NotFound(`No existe un usuario con el correo ${normalizeEmail(email)}.`);
    return user;
  }

  /**
   * Changes an account's role and whether it is disabled, each given one with its audit row, in one
   * change. Disabling ends every session of the account at once.
   */
  async function update(
    email: string,
    wanted: { role?: Role | undefined; disabled?: boolean | undefined },
    actor: Actor,
  ): Promise<void> {
    const user = await findUserOrThrow(email);
    const now = clock();
    const { role, disabled } = wanted;
    await runChange(db, async ({ trx, audit }) => {
      const r = createAuthRepository(trx);
      if (role !== undefined) {
        await r.setRole(user.id, role, now);
        await audit({
          actorEmail: actor.email,
          action: 'user.role',
          target: user.email,
          ip: actor.ip,
          details: { from: user.role, to: role },
          at: now,
        });
      }
      if (disabled !== undefined) {
        await r.setDisabled(user.id, disabled, now);
        const revoked = disabled ? await r.deleteSessionsOfUser(user.id) : 0;
        await audit({
          actorEmail: actor.email,
          action: disabled ? 'user.disable' : 'user.enable',
          target: user.email,
          ip: actor.ip,
          details: disabled ? { sessionsRevoked: revoked } : null,
          at: now,
        });
      }
    });
  }

  return {
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

    /**
     * `oneTime`: the password was generated to be handed over; it must be changed at the first sign-in.
     * `password` null: no password of ours (Firebase Auth signs the person in). `alsoGive` runs in the
     * same change once the account is stored (its departments): all of it is stored, or none.
     */
    async createUser(
      input: { email: string; password: string | null; role: Role; oneTime?: boolean },
      actor: Actor,
      alsoGive?: (change: Change, user: SessionUser) => Promise<void>,
    ): Promise<SessionUser> {
      const email = checkEmail(input.email);
      if (input.password !== null) checkNewPassword(input.password);
      if (await repo.findUserByEmail(email)) throw Conflict(`Ya existe un usuario con el correo ${email}.`);
      const now = clock();
      const passwordHash = input.password === null ? NO_LOCAL_PASSWORD : await hash(input.password);
      return runChange(db, async (change) => {
        const id = await createAuthRepository(change.trx).insertUser(
          {
            email,
            passwordHash,
            role: input.role,
            mustChangePassword: input.oneTime ?? false,
            passwordExpiresAt: oneTimeExpiry(input.oneTime, now),
          },
          now,
        );
        await change.audit({
          actorEmail: actor.email,
          action: 'user.create',
          target: email,
          ip: actor.ip,
          details: { role: input.role, oneTimePassword: input.oneTime ?? false },
          at: now,
        });
        const user: SessionUser = { id, email, role: input.role, mustChangePassword: input.oneTime ?? false };
        await alsoGive?.(change, user);
        return user;
      });
    },

    /**
     * Sets a new password, ends every session of the account and forgets its trusted browsers (whoever
     * knew the old password may have signed in on one). Answers how many sessions ended.
     * `oneTime`: it was generated to be handed over, must be changed at the next sign-in and expires.
     */
    async setPassword(
      email: string,
      password: string,
      actor: Actor,
      options: { oneTime?: boolean } = {},
    ): Promise<number> {
      checkNewPassword(password);
      const user = await findUserOrThrow(email);
      const now = clock();
      const passwordHash = await hash(password);
      return runChange(db, async ({ trx, audit }) => {
        const r = createAuthRepository(trx);
        await r.updatePasswordHash(user.id, passwordHash, now, {
          mustChange: options.oneTime ?? false,
          expiresAt: oneTimeExpiry(options.oneTime, now),
        });
        const revoked = await r.deleteSessionsOfUser(user.id);
        const devicesForgotten = await createTrustedDevices(trx).forgetAll(user.id);
        await r.clearThrottle(throttleKeys.account(user.email));
        await audit({
          actorEmail: actor.email,
          action: 'user.password',
          target: user.email,
          ip: actor.ip,
          details: { sessionsRevoked: revoked, devicesForgotten, oneTimePassword: options.oneTime ?? false },
          at: now,
        });
        return revoked;
      });
    },

    update,

    /**
     * Removes the account's second factor (a lost phone): its sessions end, and at the next sign-in the
     * person signs in with the password alone, or enrols a new one where it is required (decision 080).
     */
    async resetSecondFactor(email: string, actor: Actor): Promise<void> {
      const user = await findUserOrThrow(email);
      if (!user.totp_secret) throw BadRequest(secondFactorMessages.notEnrolled);
      const now = clock();
      await runChange(db, (change) => resetSecondFactor(change, user, actor, now));
    },

    /** Disabling ends every session of the account at once. */
    setDisabled: (email: string, disabled: boolean, actor: Actor): Promise<void> => update(email, { disabled }, actor),

    setRole: (email: string, role: Role, actor: Actor): Promise<void> => update(email, { role }, actor),

    /**
     * The mobile numbers the account votes by SMS from (docs/decisions/084), exactly these: each as
     * anyone writes it (0414-123 45 67, +58 414…), kept in one form; one account per number. The audit
     * row says how many, never which (the numbers are personal data, decision 081).
     */
    async setSmsPhones(email: string, typed: string[], actor: Actor): Promise<string[]> {
      const user = await findUserOrThrow(email);
      const phones: string[] = [];
      for (const entry of typed.map((p) => p.trim()).filter(Boolean)) {
        const phone = normalisePhone(entry);
        if (!phone) throw BadRequest(peopleMessages.badPhone(entry));
        if (!phones.includes(phone)) phones.push(phone);
      }
      const taken = await createAdminPeopleRepository(db).smsPhonesOfOthers(user.id, phones);
      if (taken[0]) throw Conflict(peopleMessages.phoneTaken(taken[0].phone, taken[0].email));
      const now = clock();
      await runChange(db, async ({ trx, audit }) => {
        await createAdminPeopleRepository(trx).replaceSmsPhones(user.id, phones, now.toISOString());
        await audit({
          actorEmail: actor.email,
          action: 'user.sms_phones',
          target: user.email,
          ip: actor.ip,
          details: { count: phones.length },
          at: now,
        });
      });
      return phones;
    },
  };
}
