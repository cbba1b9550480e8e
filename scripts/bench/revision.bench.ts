// Photo review (decision 134): the queue's first page on 100,000 voted records with their three photos,
// nine in ten already reviewed 'Conforme'. The queue is read from migration 041's partial index, so its
// first page should cost the same whatever was reviewed before: one municipality, and every one an admin
// reviews.
import { createPhotoReviewsRepository } from '#server/core/records/photo-reviews.repository';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { fakeRecords, seededRandom } from '#server/integrations/demo/records.fake';
import { createUser } from '#server/testing/auth-helpers';
import { PHOTO_KINDS } from '#shared/platform/constants';
import type { BenchSuite } from './types';

const EMAIL = 'bench.revision@comando.example';
const PASSWORD = 'clave-de-rendimiento-123';
const RECORDS = 100_000;
/** A few reviewers asking for their next records at the same moment. */
const CONNECTIONS = 5;

async function signIn(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${res.status}: ${await res.text()}`);
  return res.headers.get('set-cookie')?.split(';')[0] ?? '';
}

async function queue(origin: string, query: string) {
  const cookie = await signIn(origin);
  return [{ method: 'GET' as const, path: `/api/photo-review/queue?${query}`, headers: { cookie } }];
}

export const suite: BenchSuite = {
  name: 'Revisión de fotos',
  async seed(db, now) {
    await createUser(db, { email: EMAIL, role: 'admin', password: PASSWORD });
    await db.kysely.transaction().execute(async (trx) => {
      const repo = createRecordsRepository(trx);
      const municipalities = await repo.listMunicipalities();
      const random = seededRandom(41);
      const start = now.getTime() - 10 * 3_600_000;
      const ids: number[] = [];
      for (const [index, department] of municipalities.entries()) {
        const share = Math.floor(RECORDS / municipalities.length) + (index < RECORDS % municipalities.length ? 1 : 0);
        const records = fakeRecords(department.id, index, share, random, `revision-${department.slug}`).map((r, i) => ({
          ...r,
          // Votes spread over ten hours, each department's interleaved with the others'.
          vote: {
            codes: ['FA'],
            by: 'bench',
            at: new Date(start + (i * municipalities.length + index) * 300).toISOString(),
          },
        }));
        ids.push(...(await repo.insertMany(records, now)));
      }
      await repo.insertPhotos(
        ids.flatMap((id) =>
          PHOTO_KINDS.map((kind) => ({
            record_id: id,
            kind,
            original_key: `bench/${id}/${kind}`,
            display_key: `bench/${id}/${kind}`,
            thumb_key: `bench/${id}/${kind}`,
            sha256: '0'.repeat(64),
            size_bytes: 1,
            content_type: 'image/jpeg' as const,
            width: 1,
            height: 1,
            uploaded_by: 'bench',
            uploaded_at: now.toISOString(),
          })),
        ),
      );
      await repo.relinkPhotoSlots();
      await repo.rebuildTotals();
      // Nine in ten reviewed, through the kernel's own review: the queue holds the rest.
      const slots = await trx
        .selectFrom('records')
        .select(['id', 'gobernador_photo_id', 'an_photo_id', 'clez_photo_id'])
        .orderBy('id')
        .execute();
      const reviews = createPhotoReviewsRepository(trx);
      for (const [i, r] of slots.entries()) {
        if (i % 10 === 0) continue;
        await reviews.review(
          r.id,
          PHOTO_KINDS.map((kind) => ({
            kind,
            photoId: r[`${kind}_photo_id`] as number,
            verdict: 'conforme',
            note: null,
          })),
          'bench.revisor@comando.example',
          now.toISOString(),
        );
      }
    });
  },
  cases: [
    {
      name: `GET primera página de la cola, un municipio (${RECORDS.toLocaleString('es')} votados, 90 % revisados)`,
      connections: CONNECTIONS,
      targetP99: 100,
      requests: (origin) => queue(origin, 'municipio=cabimas&limite=10'),
    },
    {
      name: 'GET primera página de la cola, todos los municipios',
      connections: CONNECTIONS,
      targetP99: 150,
      requests: (origin) => queue(origin, 'limite=10'),
    },
  ],
};
