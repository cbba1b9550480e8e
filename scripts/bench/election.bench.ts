import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { createElectionRepository } from '#server/core/election/election.repository';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { createPhotoStorage } from '#server/platform/storage/create-photo-storage';
import { createUser } from '#server/testing/auth-helpers';
import { seedBenchRecords } from './data/records-seed';
import type { BenchSuite } from './types';

const ADMIN = 'bench.jefa@comando.example';
const PASSWORD = 'clave-de-rendimiento-123';
const SLUG = 'bolivar';
const DRILL_VOTES = 10_000;
// A small real JPEG: what is measured is the erasure, not the size of the files.
const JPEG = fs.readFileSync(path.join(import.meta.dirname, '../../tests/fixtures/ballot.jpg'));

/** Every file under the data folder's photos. */
function photoFiles(dataDir: string): number {
  const root = path.join(dataDir, 'photos');
  if (!fs.existsSync(root)) return 0;
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

/**
 * 'Terminar simulacro' on a drill of 10,000 votes, each with its Gobernador photo (three files): the drill
 * is written as data (records voted, ballots, photos with their files, each kept as a drill item, as the
 * vote and the photo keep them), then erased through the API once; the table says how long it took and
 * what is left in the database and on disk.
 */
export const suite: BenchSuite = {
  name: 'Jornada',
  async seed(db, now, dataDir) {
    await createUser(db, { email: ADMIN, role: 'admin', password: PASSWORD });
    const ids = (await seedBenchRecords(db, DRILL_VOTES, { departments: [SLUG] })).ids[SLUG] ?? [];
    const storage = createPhotoStorage({ dataDir });
    const at = now.toISOString();
    const keys: { key: string }[][] = [];
    for (const _ of ids) {
      const meta = { suffix: 'jpg', contentType: 'image/jpeg' };
      keys.push(await Promise.all([storage.put(JPEG, meta), storage.put(JPEG, meta), storage.put(JPEG, meta)]));
    }
    await db.kysely.transaction().execute(async (trx) => {
      const records = createRecordsRepository(trx);
      const election = createElectionRepository(trx);
      const before = await trx.selectFrom('records').select(['id', 'updated_at']).where('id', 'in', ids).execute();
      const fa = (await records.listCandidates()).find((c) => c.code === 'FA');
      await trx
        .updateTable('records')
        .set({ voted_at: at, voted_by: ADMIN, vote_codes: 'FA', vote_revision: sql<number>`vote_revision + 1` })
        .where('id', 'in', ids)
        .execute();
      await records.insertVoteRows(ids.map((record_id) => ({ record_id, candidate_id: fa?.id ?? 1, created_at: at })));
      const photoIds = await records.insertPhotos(
        ids.map((record_id, i) => ({
          record_id,
          kind: 'gobernador',
          original_key: keys[i]?.[0]?.key ?? '',
          display_key: keys[i]?.[1]?.key ?? '',
          thumb_key: keys[i]?.[2]?.key ?? '',
          sha256: `${record_id}`.padStart(64, '0'),
          size_bytes: JPEG.length,
          content_type: 'image/jpeg',
          width: 480,
          height: 360,
          uploaded_by: ADMIN,
          uploaded_at: at,
        })),
      );
      await records.relinkPhotoSlots();
      await records.rebuildTotals();
      for (const [i, row] of before.entries()) {
        const item = { record_id: row.id, record_revision: 0, record_updated_at: row.updated_at, made_at: at };
        await election.addDrillItem({ ...item, kind: 'vote', photo_id: null, item_key: null });
        await election.addDrillItem({ ...item, kind: 'gobernador', photo_id: photoIds[i] ?? null, item_key: null });
      }
      await election.save({
        phase: 'simulacro',
        closes_at: null,
        closed_at: null,
        grace_hours: 12,
        changed_at: at,
        changed_by: ADMIN,
        reason: 'Prueba de rendimiento',
      });
    });
  },
  cases: [],
  async extra(origin, _pid, dataDir) {
    const login = await fetch(`${origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email: ADMIN, password: PASSWORD }),
    });
    const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
    const filesBefore = photoFiles(dataDir);
    const started = performance.now();
    const res = await fetch(`${origin}/api/admin/election/drill/end`, {
      method: 'POST',
      headers: { cookie, origin, 'content-type': 'application/json' },
      body: JSON.stringify({ votes: DRILL_VOTES, photos: DRILL_VOTES, reason: 'Fin de la prueba' }),
    });
    const ms = Math.round(performance.now() - started);
    const body = (await res.json()) as { filesDeleted?: number; message?: string };
    const results = (await (await fetch(`${origin}/api/results`, { headers: { cookie } })).json()) as {
      ballots?: number;
    };
    return [
      {
        suite: 'Jornada',
        caso: `Terminar simulacro: ${DRILL_VOTES.toLocaleString('es')} votos con su foto`,
        'p50 ms': ms,
        objetivo: `${res.status}; archivos ${filesBefore} → ${photoFiles(dataDir)}; borrados ${body.filesDeleted}; boletas en resultados ${results.ballots}`,
        ok: res.ok && photoFiles(dataDir) === 0 && results.ballots === 0 ? 'sí' : 'NO',
      },
    ];
  },
};
