import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { v7 as itemKey } from 'uuid';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { createUser } from '#server/testing/auth-helpers';
import { seedBenchRecords } from './data/records-seed';
import { memoryMb } from './process-memory';
import type { BenchSuite } from './types';

const EMAIL = 'bench.jefa@comando.example';
const PASSWORD = 'clave-de-rendimiento-123';
const PACKAGE_SLUG = 'cabimas';
const VOTE_SLUG = 'bolivar';
const RECORDS = 1_000;
const PHOTO_BYTES = 600 * 1024;
const KINDS = ['gobernador', 'an', 'clez'] as const;
let voteIds: number[] = [];

/** A storage key of the local driver's shape, made from a number. */
const keyOf = (n: number) => {
  const hex = n.toString(16).padStart(34, '0');
  return `${hex.slice(0, 2)}/${hex.slice(2)}.jpg`;
};

async function signIn(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${res.status}`);
  return res.headers.get('set-cookie')?.split(';')[0] ?? '';
}

/** Votes as phones send them (a key each) for `seconds`: their p99. */
async function votes(origin: string, cookie: string, next: { i: number }, seconds: number) {
  const result = await autocannon({
    url: origin,
    connections: 10,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/',
        headers: { cookie, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ candidates: ['FA'] }),
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, 'idempotency-key': itemKey() },
          path: `/api/validation/${VOTE_SLUG}/records/${voteIds[next.i++ % voteIds.length]}/vote`,
        }),
      },
    ],
  });
  return { p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/**
 * The evidence package of a municipality with 1,000 voted records and 3,000 photos of 600 KB (decision
 * 074): how long it takes, the server's peak memory while it is written, and the p99 of votes sent
 * meanwhile against the p99 of the same votes before it.
 */
export const suite: BenchSuite = {
  name: 'Evidencias: paquete',
  async seed(db, now) {
    await createUser(db, { email: EMAIL, role: 'admin', password: PASSWORD, departments: [VOTE_SLUG] });
    const { ids } = await seedBenchRecords(db, RECORDS, { departments: [PACKAGE_SLUG] });
    voteIds = (await seedBenchRecords(db, 50_000, { departments: [VOTE_SLUG] })).ids[VOTE_SLUG] ?? [];
    const at = now.toISOString();
    await db.kysely.transaction().execute(async (trx) => {
      let n = 0;
      for (const id of ids[PACKAGE_SLUG] ?? []) {
        await sql`update records set vote_codes = 'FA', voted_at = ${at}, voted_by = ${EMAIL} where id = ${id}`.execute(
          trx,
        );
        await writeAudit(trx, {
          actorEmail: EMAIL,
          action: 'record.vote',
          departmentSlug: PACKAGE_SLUG,
          target: `record:${id}`,
          details: { candidates: ['FA'] },
          at: now,
        });
        for (const kind of KINDS) {
          n += 1;
          const photo = await trx
            .insertInto('photos')
            .values({
              record_id: id,
              kind,
              original_key: keyOf(n),
              display_key: keyOf(n),
              thumb_key: keyOf(n),
              sha256: '0'.repeat(64),
              size_bytes: PHOTO_BYTES,
              content_type: 'image/jpeg',
              width: 1600,
              height: 1200,
              uploaded_by: EMAIL,
              uploaded_at: at,
              replaced_at: null,
              replaced_by: null,
              shared_url: null,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await sql`update records set ${sql.ref(`${kind}_photo_id`)} = ${photo.id} where id = ${id}`.execute(trx);
          await writeAudit(trx, {
            actorEmail: EMAIL,
            action: 'photo.upload',
            departmentSlug: PACKAGE_SLUG,
            target: `record:${id}`,
            details: { kind, photoId: photo.id, sha256: '0'.repeat(64), sizeBytes: PHOTO_BYTES },
            at: now,
          });
        }
      }
    });
  },
  cases: [],
  async extra(origin, serverPid, dataDir) {
    // The photo files, written where the local driver keeps them (random bytes: a photo does not compress).
    const bytes = randomBytes(PHOTO_BYTES);
    for (let n = 1; n <= RECORDS * KINDS.length; n++) {
      const file = path.join(dataDir, 'photos', keyOf(n));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, bytes);
    }
    const cookie = await signIn(origin);
    const next = { i: 0 };
    const idle = await votes(origin, cookie, next, 5);

    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, memoryMb(serverPid).server);
    }, 100);
    const started = performance.now();
    let size = 0;
    const download = (async () => {
      const res = await fetch(`${origin}/api/admin/evidence/package.zip?department=${PACKAGE_SLUG}`, {
        headers: { cookie },
      });
      if (!res.ok || !res.body) throw new Error(`paquete ${res.status}`);
      for await (const chunk of res.body) size += (chunk as Uint8Array).length;
      return performance.now() - started;
    })();
    const during = votes(origin, cookie, next, 5);
    const ms = await download;
    const busy = await during;
    clearInterval(sampler);
    return [
      {
        suite: 'Evidencias: paquete',
        caso: `paquete de ${RECORDS.toLocaleString('es')} registros y ${(RECORDS * 3).toLocaleString('es')} fotos (${Math.round(size / 1024 / 1024)} MB)`,
        'p50 ms': Math.round(ms),
        objetivo: 'memoria máx. < 250 MB',
        errores: 0,
        ok: peak < 250 ? 'sí' : 'NO',
        memoria: `${Math.round(peak)} MB`,
      },
      {
        suite: 'Evidencias: paquete',
        caso: 'p99 de un voto con clave: sin paquete / mientras se escribe',
        'p99 ms': `${idle.p99} / ${busy.p99}`,
        objetivo: 'a lo sumo el doble',
        errores: idle.errors + busy.errors,
        ok: busy.p99 <= 2 * idle.p99 && idle.errors + busy.errors === 0 ? 'sí' : 'NO',
      },
    ];
  },
};
