import { createRecordsRepository, type NewRecord } from '#server/core/records/records.repository';
import { createDepartmentsService } from '#server/features/departments/departments.service';
import { createAccountsService } from '#server/features/people/accounts.service';
import { demoPhotoPlaceholder } from '#server/integrations/demo/photos.demo';
import { fakeRecords, seededRandom } from '#server/integrations/demo/records.fake';
import type { Db } from '#server/platform/db/database';
import { testPasswordHash } from '#server/testing/auth-helpers';
import { PHOTO_KINDS } from '#shared/platform/constants';

export const RECORDS_PASSWORD = 'clave-registros-2026';

/**
 * Validators of the records specs, each on departments no other spec touches, so votes and photos
 * made here change nothing another spec looks at.
 */
export const RECORDS_ACCOUNTS = {
  /** Miranda: a dozen known records to vote, photograph and search. */
  miranda: { email: 'validacion.miranda@e2e.example', departments: ['miranda'] },
  /** Santa Rita: two records, one already validated; finishing the other completes the parish. */
  santaRita: { email: 'validacion.santarita@e2e.example', departments: ['santa-rita'] },
  /** Mara: 5,000 records, for the long list. */
  mara: { email: 'validacion.mara@e2e.example', departments: ['mara'] },
} as const;

export const MIRANDA_RECORDS = [
  {
    comunidad: 'Sector El Bajo',
    nombre: 'María Fernanda Pérez Urdaneta',
    ubch: 'UBCH 110131001',
    telefono: '0414-6123456',
  },
  { comunidad: 'Sector El Bajo', nombre: 'José Gregorio Finol', ubch: 'UBCH 110131001', telefono: '0424-6234567' },
  { comunidad: 'Sector El Bajo', nombre: 'Yusmary Chourio', ubch: 'UBCH 110131002', telefono: '0412-6345678' },
  { comunidad: 'Barrio Altagracia', nombre: 'Luis Alfonso Montiel', ubch: 'UBCH 110131003', telefono: '0416-6456789' },
  {
    comunidad: 'Barrio Altagracia',
    nombre: 'Carmen Rosa Villalobos',
    ubch: 'UBCH 110131003',
    telefono: '0426-6567890',
  },
  { comunidad: 'Barrio Altagracia', nombre: 'Wilmer Atencio Paz', ubch: 'UBCH 110131004', telefono: '0414-6678901' },
  {
    comunidad: 'Caserío Punta de Leiva',
    nombre: 'Dayana Bracho Ferrer',
    ubch: 'UBCH 110131005',
    telefono: '0424-6789012',
  },
  { comunidad: 'Caserío Punta de Leiva', nombre: 'Richard Portillo', ubch: 'UBCH 110131005', telefono: '0412-6890123' },
] as const;

export const SANTA_RITA_RECORDS = {
  done: {
    comunidad: 'Sector El Guanábano',
    nombre: 'Omaira Semprún',
    ubch: 'UBCH 110135001',
    telefono: '0414-7000001',
  },
  open: {
    comunidad: 'Sector El Guanábano',
    nombre: 'Néstor Oquendo',
    ubch: 'UBCH 110135001',
    telefono: '0424-7000002',
  },
} as const;

export const MARA_RECORD_COUNT = 5_000;

export async function seedRecordsFixtures(db: Db, now: Date): Promise<void> {
  const auth = createAccountsService(db.kysely, () => now, testPasswordHash);
  const actor = { email: 'e2e', ip: null };
  for (const account of Object.values(RECORDS_ACCOUNTS)) {
    await auth.createUser({ email: account.email, password: RECORDS_PASSWORD, role: 'staff' }, actor);
    for (const slug of account.departments)
      await createDepartmentsService(db.kysely, () => now).grantAccess(account.email, slug, actor);
  }

  const records = createRecordsRepository(db.kysely);
  const departments = new Map((await records.listMunicipalities()).map((d) => [d.slug, d.id]));
  const id = (slug: string) => {
    const found = departments.get(slug);
    if (found === undefined) throw new Error(`No existe ${slug}`);
    return found;
  };
  const at = now.toISOString();

  await records.insertMany(
    MIRANDA_RECORDS.map((r): NewRecord => ({ departmentId: id('miranda'), ...r })),
    now,
  );

  const [doneId] = await records.insertMany(
    [
      { departmentId: id('santa-rita'), ...SANTA_RITA_RECORDS.done, vote: { codes: ['LC'], by: 'e2e', at } },
      { departmentId: id('santa-rita'), ...SANTA_RITA_RECORDS.open },
    ],
    now,
  );
  if (doneId === undefined) throw new Error('No se creó el trámite validado de Santa Rita');
  const candidates = await records.listCandidates();
  const lc = candidates.find((c) => c.code === 'LC');
  if (lc) await records.insertVoteRows([{ record_id: doneId, candidate_id: lc.id, created_at: at }]);
  // Placeholder keys: the server generates the image files when it starts.
  await createRecordsRepository(db.kysely).insertPhotos(
    PHOTO_KINDS.map((kind) => ({
      record_id: doneId,
      kind,
      original_key: demoPhotoPlaceholder(kind, 0),
      display_key: demoPhotoPlaceholder(kind, 0),
      thumb_key: demoPhotoPlaceholder(kind, 0),
      sha256: demoPhotoPlaceholder(kind, 0),
      size_bytes: 0,
      content_type: 'image/jpeg' as const,
      width: 480,
      height: 360,
      uploaded_by: 'e2e',
      uploaded_at: at,
    })),
  );

  await records.insertMany(fakeRecords(id('mara'), 0, MARA_RECORD_COUNT, seededRandom(7)), now);
  await records.relinkPhotoSlots();
  await records.rebuildTotals();
}
