import type { Kysely } from 'kysely';
import { createAccountsService } from '#server/features/people/accounts.service';
import { grantDepartment } from '#server/platform/access/access.service';
import type { Db } from '#server/platform/db/database';
import type { Database } from '#server/platform/db/schema';
import type { SessionUser } from '#server/platform/session/identity';
import type { TestApp } from './test-app';

/** The password test accounts get unless a test says otherwise. */
export const TEST_PASSWORD = 'clave-de-prueba-123';

const kyselyOf = (db: Db | Kysely<Database>): Kysely<Database> => ('kysely' in db ? db.kysely : db);

/**
 * Creates an account (and puts its e-mail on the given departments' lists) straight in the database.
 * `departments` are slugs: 'resultados', 'notas', 'agenda' or a municipality such as 'cabimas'.
 */
export async function createUser(
  db: Db | Kysely<Database>,
  options: { email: string; role: 'admin' | 'staff'; password?: string; departments?: string[] },
): Promise<SessionUser> {
  const kysely = kyselyOf(db);
  const actor = { email: 'pruebas', ip: null };
  const user = await createAccountsService(kysely, () => new Date()).createUser(
    { email: options.email, password: options.password ?? TEST_PASSWORD, role: options.role },
    actor,
  );
  for (const slug of options.departments ?? []) await grantDepartment(kysely, user.email, slug, actor, new Date());
  return user;
}

/**
 * Signs in through the real endpoint and returns the Cookie header to send with later requests:
 * `app.inject({ url, headers: { cookie } })` or `t.request({ ..., headers: { cookie } })`.
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

/** Account changes as the command line and the people screens make them (tests of other features). */
export const accountsOf = (kysely: Kysely<Database>) => createAccountsService(kysely, () => new Date());
