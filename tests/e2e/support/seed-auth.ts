import { createDepartmentsService } from '#server/features/departments/departments.service';
import { createAccountsService } from '#server/features/people/accounts.service';
import type { Db } from '#server/platform/db/database';
import { testPasswordHash } from '#server/testing/auth-helpers';

/** Every e2e account signs in with this password (the disabled one too: it must still be refused). */
export const E2E_PASSWORD = 'clave-e2e-2026';

/**
 * Accounts and access lists the end-to-end tests sign in with. Each spec that needs a fresh counter
 * (throttling) or a session it may end (logout) uses an account of its own.
 */
export const E2E_ACCOUNTS = {
  /** Admin: Resultados, Notas, Agenda (the base group); no municipality. */
  admin: { email: 'admin@e2e.example', password: E2E_PASSWORD, role: 'admin', departments: [] },
  /** Another admin, for the logout tests. */
  adminLogout: { email: 'admin.salida@e2e.example', password: E2E_PASSWORD, role: 'admin', departments: [] },
  /** Validator of two Maracaibo parishes (menu order: coquivacoa, then cristo-de-aranza). */
  validatorTwo: {
    email: 'validador.dos@e2e.example',
    password: E2E_PASSWORD,
    role: 'staff',
    departments: ['cristo-de-aranza', 'coquivacoa'],
  },
  /** Validator of one municipality: Cabimas ("A" of the access tests). */
  validatorA: {
    email: 'validador.cabimas@e2e.example',
    password: E2E_PASSWORD,
    role: 'staff',
    departments: ['cabimas'],
  },
  /** Validator of another municipality: Lagunillas ("B"). */
  validatorB: {
    email: 'validador.lagunillas@e2e.example',
    password: E2E_PASSWORD,
    role: 'staff',
    departments: ['lagunillas'],
  },
  /** On the Notas list only (one of the "extra addresses" of spec section 6). */
  notasEditor: { email: 'editora.notas@e2e.example', password: E2E_PASSWORD, role: 'staff', departments: ['notas'] },
  /** Signed-in staff on no list at all. */
  noDepartment: { email: 'sin.departamento@e2e.example', password: E2E_PASSWORD, role: 'staff', departments: [] },
  /** A disabled account: the right password must still be refused like a wrong one. */
  disabled: {
    email: 'desactivada@e2e.example',
    password: E2E_PASSWORD,
    role: 'staff',
    departments: ['cabimas'],
  },
  /** Signed in on two phones, then out of both from one (ends its sessions). */
  twoPhones: { email: 'dos.telefonos@e2e.example', password: E2E_PASSWORD, role: 'staff', departments: ['sucre'] },
} as const satisfies Record<
  string,
  { email: string; password: string; role: 'admin' | 'staff'; departments: readonly string[]; oneTime?: boolean }
>;

/**
 * Accounts a test changes for good (a failure counter, a password): one per run of that test against one
 * server, a retry or a `--repeat-each` run (support/attempt.ts), so no run meets what another left.
 */
export const E2E_ACCOUNT_RUNS = 12;
/** Only for the too-many-attempts test. */
export const throttledAccount = (run: number) =>
  ({ email: `intentos.${run % E2E_ACCOUNT_RUNS}@e2e.example`, password: E2E_PASSWORD }) as const;
/** Handed a one-time password (as an admin would), to choose their own at the first sign-in. */
export const oneTimeAccount = (run: number) =>
  ({ email: `un.solo.uso.${run % E2E_ACCOUNT_RUNS}@e2e.example`, password: 'k7mp-x2qa-9fht' }) as const;

export async function seedAuthFixtures(db: Db, now: Date): Promise<void> {
  const auth = createAccountsService(db.kysely, () => now, testPasswordHash);
  const actor = { email: 'e2e', ip: null };
  const accounts = [
    ...Object.values(E2E_ACCOUNTS),
    ...Array.from({ length: E2E_ACCOUNT_RUNS }, (_, run) => [
      { ...throttledAccount(run), role: 'staff' as const, departments: ['sucre'] },
      { ...oneTimeAccount(run), role: 'staff' as const, departments: ['sucre'], oneTime: true },
    ]).flat(),
  ];
  for (const account of accounts) {
    const oneTime = 'oneTime' in account && account.oneTime;
    await auth.createUser({ email: account.email, password: account.password, role: account.role, oneTime }, actor);
    for (const slug of account.departments)
      await createDepartmentsService(db.kysely, () => now).grantAccess(account.email, slug, actor);
  }
  await auth.setDisabled(E2E_ACCOUNTS.disabled.email, true, actor);
}
