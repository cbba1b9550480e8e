import crypto from 'node:crypto';
import { createDepartmentsService } from '#server/features/departments/departments.service';
import { createAccountsService } from '#server/features/people/accounts.service';
import type { DemoStep } from './demo-step';

/** The demo's accounts: an admin, a validator of two Maracaibo parishes and a validator of Cabimas. */
export const DEMO_ACCOUNTS = [
  { email: 'admin@comando.example', role: 'admin', departments: [] },
  {
    email: 'validador.maracaibo@comando.example',
    role: 'staff',
    departments: ['cristo-de-aranza', 'coquivacoa'],
  },
  { email: 'validador.cabimas@comando.example', role: 'staff', departments: ['cabimas'] },
] as const;

/** A password a person can type from the console: four groups of letters and digits. */
function randomPassword(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const bytes = crypto.randomBytes(16);
  const chars = Array.from(bytes, (b) => alphabet[b % alphabet.length]);
  return [0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join('')).join('-');
}

/**
 * Creates the demo accounts with random passwords, printed once here and stored nowhere but as hashes.
 * Accounts that already exist are left alone.
 */
export const authDemoStep: DemoStep = async ({ db, now, announce }) => {
  const auth = createAccountsService(db.kysely, () => now);
  const departments = createDepartmentsService(db.kysely, () => now);
  const actor = { email: 'demo', ip: null };
  const lines: string[] = [];
  for (const account of DEMO_ACCOUNTS) {
    const existing = (await auth.listUsers()).some((u) => u.email === account.email);
    if (existing) continue;
    const password = randomPassword();
    await auth.createUser({ email: account.email, password, role: account.role }, actor);
    for (const slug of account.departments) await departments.grantAccess(account.email, slug, actor);
    const scope = account.role === 'admin' ? 'administrador' : `validador de ${account.departments.join(', ')}`;
    lines.push(`  ${account.email}  ${password}  (${scope})`);
  }
  if (lines.length === 0) return;
  announce('Cuentas de demostración (las contraseñas se muestran solo esta vez):');
  for (const line of lines) announce(line);
};
