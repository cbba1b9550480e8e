import { createRecordsRepository, type NewRecord } from '#server/core/records/records.repository';
import { createDepartmentsService } from '#server/features/departments/departments.service';
import { createFieldService } from '#server/features/field/field.service';
import { createAccountsService } from '#server/features/people/accounts.service';
import type { Db } from '#server/platform/db/database';
import { testPasswordHash } from '#server/testing/auth-helpers';

export const OUTBOX_PASSWORD = 'clave-envios-2026';

/**
 * Validators of the phone-outbox spec, each on a department no other spec touches. Each run uses
 * records nobody voted yet, so the spec can run many times against one server (--repeat-each).
 */
export const OUTBOX_ACCOUNTS = {
  /** Votes and photos taken offline, a closed browser, then back online. */
  offline: { email: 'envios.sinconexion@e2e.example', slug: 'rosario-de-perija' },
  /** An answer lost on the way, and a double tap on 'Votar'. */
  retries: { email: 'envios.reintentos@e2e.example', slug: 'jesus-maria-semprun' },
  /** Photos cut on the way by a bad network, continued where they stopped. */
  resumable: { email: 'envios.reanudables@e2e.example', slug: 'chiquinquira' },
  /** A validator whose phone holds items, as the department's coordinator sees it. */
  field: { email: 'envios.campo@e2e.example', slug: 'santa-lucia' },
} as const;

/** A member of the field validator's department list: sees its field view (docs/decisions/048). */
export const FIELD_COORDINATOR = { email: 'coordinacion.campo@e2e.example', slug: 'santa-lucia' } as const;

/**
 * The view of every department: a coordinator on three lists. In Machiques de Perijá a validator's
 * phone said, 25 minutes before the server's clock starts, that a vote waited on it (never arrived):
 * stuck. Francisco Javier Pulgar has nobody with anything waiting.
 */
export const FIELD_OVERVIEW = {
  coordinator: 'coordinacion.general@e2e.example',
  stuck: { email: 'envios.atascados@e2e.example', slug: 'machiques-de-perija', title: 'Machiques de Perijá' },
  clear: { slug: 'francisco-javier-pulgar', title: 'Francisco Javier Pulgar' },
} as const;

/** Records per department: enough for a dozen runs of every test of the spec. */
export const OUTBOX_RECORDS_PER_DEPARTMENT = 60;

export async function seedOutboxFixtures(db: Db, now: Date): Promise<void> {
  const auth = createAccountsService(db.kysely, () => now, testPasswordHash);
  const actor = { email: 'e2e', ip: null };
  const records = createRecordsRepository(db.kysely);
  const departments = new Map((await records.listMunicipalities()).map((d) => [d.slug, d.id]));
  for (const account of Object.values(OUTBOX_ACCOUNTS)) {
    await auth.createUser({ email: account.email, password: OUTBOX_PASSWORD, role: 'staff' }, actor);
    await createDepartmentsService(db.kysely, () => now).grantAccess(account.email, account.slug, actor);
    const departmentId = departments.get(account.slug);
    if (departmentId === undefined) throw new Error(`No existe ${account.slug}`);
    await records.insertMany(
      Array.from(
        { length: OUTBOX_RECORDS_PER_DEPARTMENT },
        (_, i): NewRecord => ({
          departmentId,
          comunidad: `Sector ${Math.floor(i / 10) + 1}`,
          nombre: `Votante ${String(i + 1).padStart(2, '0')} de ${account.slug}`,
          ubch: `UBCH 1102${String(i).padStart(5, '0')}`,
          telefono: `0414-${String(8_000_000 + i).padStart(7, '0')}`,
        }),
      ),
      now,
    );
  }
  await auth.createUser({ email: FIELD_COORDINATOR.email, password: OUTBOX_PASSWORD, role: 'staff' }, actor);
  await createDepartmentsService(db.kysely, () => now).grantAccess(
    FIELD_COORDINATOR.email,
    FIELD_COORDINATOR.slug,
    actor,
  );

  const { coordinator, stuck, clear } = FIELD_OVERVIEW;
  await auth.createUser({ email: coordinator, password: OUTBOX_PASSWORD, role: 'staff' }, actor);
  for (const slug of [FIELD_COORDINATOR.slug, stuck.slug, clear.slug]) {
    await createDepartmentsService(db.kysely, () => now).grantAccess(coordinator, slug, actor);
  }
  const stuckUser = await auth.createUser({ email: stuck.email, password: OUTBOX_PASSWORD, role: 'staff' }, actor);
  await createDepartmentsService(db.kysely, () => now).grantAccess(stuck.email, stuck.slug, actor);
  const [recordId] = await records.insertMany(
    [
      {
        departmentId: departments.get(stuck.slug) ?? 0,
        comunidad: 'Sector 1',
        nombre: 'Votante atascado',
        ubch: 'UBCH 1',
        telefono: '0414-0000001',
      },
    ],
    now,
  );
  const savedAt = new Date(now.getTime() - 25 * 60_000).toISOString();
  await createFieldService(db.kysely, () => now).receiveReport(
    { id: stuckUser.id, email: stuck.email, role: 'staff' },
    'sesion-de-la-semilla',
    {
      deviceId: '6f1d2c3b-4a59-4e68-8f70-9a1b2c3d4e5f',
      deviceNow: now.toISOString(),
      lastSuccessAt: null,
      lastError: { message: 'No hay conexión con el servidor.', at: savedAt },
      items: [
        {
          key: '0c8e2f4a-1b3d-4c5e-9f60-718293a4b5c6',
          slug: stuck.slug,
          recordId: recordId ?? 0,
          kind: 'vote',
          savedAt,
        },
      ],
    },
  );
}
