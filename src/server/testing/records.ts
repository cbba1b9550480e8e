import { createRecordsRepository, type NewRecord } from '#server/core/records/records.repository';
import { createVoteWriter } from '#server/features/records/records.service';
import { createUser, sessionCookie } from './auth-helpers';
import type { TestApp } from './test-app';

/** Data builders for the records and photos tests (not a test file itself). */
export async function addRecords(
  t: TestApp,
  slug: string,
  records: Partial<Omit<NewRecord, 'departmentId'>>[] | number,
): Promise<number[]> {
  const repo = createRecordsRepository(t.db.kysely);
  const department = (await repo.listMunicipalities()).find((d) => d.slug === slug);
  if (!department) throw new Error(`No existe el municipio ${slug}`);
  const list: Partial<Omit<NewRecord, 'departmentId'>>[] =
    typeof records === 'number' ? Array.from({ length: records }, () => ({})) : records;
  return repo.insertMany(
    list.map((r, i) => ({
      departmentId: department.id,
      comunidad: r.comunidad ?? `Sector ${Math.floor(i / 10) + 1}`,
      nombre: r.nombre ?? `Persona ${i + 1}`,
      ubch: r.ubch ?? `UBCH ${110_100_000 + i}`,
      telefono: r.telefono ?? `0414-${String(1_000_000 + i).padStart(7, '0')}`,
      status: r.status,
      sourceId: r.sourceId,
    })),
    new Date(),
  );
}

export const PEOPLE = {
  validatorA: 'validadora.a@example.org',
  validatorB: 'validador.b@example.org',
  admin: 'jefa@example.org',
} as const;
export const SLUG_A = 'cabimas';
export const SLUG_B = 'lagunillas';

/** A validator of A, a validator of B and an admin who is also on A's list; their cookies. */
export async function signInPeople(t: TestApp): Promise<Record<keyof typeof PEOPLE, string>> {
  await createUser(t.db, { email: PEOPLE.validatorA, role: 'staff', departments: [SLUG_A] });
  await createUser(t.db, { email: PEOPLE.validatorB, role: 'staff', departments: [SLUG_B] });
  await createUser(t.db, { email: PEOPLE.admin, role: 'admin', departments: [SLUG_A] });
  return {
    validatorA: await sessionCookie(t, PEOPLE.validatorA),
    validatorB: await sessionCookie(t, PEOPLE.validatorB),
    admin: await sessionCookie(t, PEOPLE.admin),
  };
}

/** Casts a record's vote through the vote service, as a validator of its department would. */
export async function castVote(
  t: TestApp,
  recordId: number,
  codes: string[],
  by = 'validadora.a@example.org',
): Promise<void> {
  const row = await t.db.kysely
    .selectFrom('records')
    .innerJoin('departments', 'departments.id', 'records.department_id')
    .select(['departments.id', 'departments.slug'])
    .where('records.id', '=', recordId)
    .executeTakeFirstOrThrow();
  await createVoteWriter(t.db.kysely, t.db.dialect).cast({
    department: row,
    recordId,
    codes,
    user: { id: 0, email: by, role: 'staff' },
    ip: null,
    now: new Date(),
  });
}
