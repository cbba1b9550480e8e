import type { Kysely } from 'kysely';
import { createDepartmentsService } from '#server/features/departments/departments.service';
import { createAccountsService } from '#server/features/people/accounts.service';
import { runChange } from '#server/platform/change/change';
import type { Db } from '#server/platform/db/database';
import type { Database } from '#server/platform/db/schema';
import type { SessionUser } from '#server/platform/session/identity';
import { hashPassword, needsRehash } from '#server/platform/session/passwords';
import { sessionCookieName } from '#server/platform/session/session.plugin';
import { createAuthRepository } from '#server/platform/session/session.repository';
import { createSessionService } from '#server/platform/session/session.service';
import { throttleKeys } from '#server/platform/session/throttle';
import { normalizeEmail } from '#shared/platform/email';
import type { TestApp } from './test-app';

/** The password test accounts get unless a test says otherwise. */
export const TEST_PASSWORD = 'clave-de-prueba-123';

/**
 * argon2id of TEST_PASSWORD with today's settings (passwords.ts), made once ahead of time: an account
 * of the test data costs an insert, not a hash. auth-helpers.test.ts checks it still verifies.
 */
export const TEST_PASSWORD_HASH =
  '$argon2id$v=19$m=9216,t=4,p=1$De+Pm8chAJ9HsanfvapAuQ$YPkUtynN1lQ2gTZMdf9mswuO1BsjClNhVA7qA7zNHak';

const madeHashes = new Map<string, Promise<string>>();
/**
 * A real argon2id hash of the password, made once per password and test file. Accounts made with it
 * share a salt, which no test of the data builders looks at; the accounts service itself hashes anew.
 */
export function testPasswordHash(password: string): Promise<string> {
  if (password === TEST_PASSWORD && !needsRehash(TEST_PASSWORD_HASH)) return Promise.resolve(TEST_PASSWORD_HASH);
  let made = madeHashes.get(password);
  if (!made) {
    made = hashPassword(password);
    madeHashes.set(password, made);
  }
  return made;
}

const kyselyOf = (db: Db | Kysely<Database>): Kysely<Database> => ('kysely' in db ? db.kysely : db);

/**
 * Creates an account (and puts its e-mail on the given departments' lists) through the accounts
 * service, with a hash made ahead of time (testPasswordHash).
 * `departments` are slugs: 'resultados', 'notas', 'agenda' or a municipality such as 'cabimas'.
 */
export async function createUser(
  db: Db | Kysely<Database>,
  options: { email: string; role: 'admin' | 'staff'; password?: string; departments?: string[] },
): Promise<SessionUser> {
  const kysely = kyselyOf(db);
  const actor = { email: 'pruebas', ip: null };
  const user = await createAccountsService(kysely, () => new Date(), testPasswordHash).createUser(
    { email: options.email, password: options.password ?? TEST_PASSWORD, role: options.role },
    actor,
  );
  const departments = createDepartmentsService(kysely, () => new Date());
  for (const slug of options.departments ?? []) await departments.grantAccess(user.email, slug, actor);
  return user;
}

/**
 * Signs in through the real endpoint (the password is checked, an argon2 verify) and returns the
 * Cookie header to send with later requests: `t.request({ ..., headers: { cookie } })`. For tests of
 * signing in; other tests take `sessionCookie`.
 */
export async function loginAs(t: TestApp, email: string, password: string = TEST_PASSWORD): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) {
    throw new Error(`No se pudo iniciar sesión como ${email}: ${res.statusCode} ${res.body}`);
  }
  const cookie = res.cookies.find((c) => c.name.endsWith('comando_sesion'));
  if (!cookie) throw new Error('La respuesta de inicio de sesión no trae la cookie de sesión.');
  return `${cookie.name}=${cookie.value}`;
}

/**
 * A signed-in session of an existing, enabled account, opened the way a good sign-in opens it (the
 * session row, the last sign-in time, the audit row, as from app.inject's address) without checking a
 * password; returns the Cookie header, as loginAs does.
 */
export async function sessionCookie(t: TestApp, email: string): Promise<string> {
  const normalized = normalizeEmail(email);
  const user = await createAuthRepository(t.db.kysely).findUserByEmail(normalized);
  if (!user || user.disabled) throw new Error(`No hay una cuenta activa con el correo ${normalized}.`);
  const { token } = await runChange(t.db.kysely, (change) =>
    createSessionService(t.db.kysely, t.config.now).open(
      change,
      user,
      { ip: '127.0.0.1', userAgent: 'lightMyRequest' },
      t.config.now(),
      [throttleKeys.accountAtAddress(normalized, '127.0.0.1')],
      null,
    ),
  );
  return `${sessionCookieName(t.app)}=${token}`;
}

/** Account changes as the command line and the people screens make them (tests of other features). */
export const accountsOf = (kysely: Kysely<Database>) => createAccountsService(kysely, () => new Date());
