// `npx tsx scripts/bench/vote-writer.micro.ts`: the vote's own work, without HTTP: the vote writer of
// features/records (its transaction, the day's check, the ballot, the counters, the audit chain and, with
// an Idempotency-Key, the key and its answer) on a throwaway SQLite database of 100,000 records and, when
// PostgreSQL's binaries are installed, on a throwaway PostgreSQL cluster (MICRO_DIALECTS=sqlite to skip it;
// the cluster runs without fsync, as the tests' does). Rounds of MICRO_BATCH votes sent at once, as that
// many phones would; per vote: wall-clock µs and this process's CPU µs, without a key and with one, three
// times each (decision 088). Not a suite of `npm run bench`: `npm run bench -- validación` measures whole requests.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v7 as itemKey } from 'uuid';
import { createVoteWriter } from '#server/features/records/records.service';
import { type Db, migrateToLatest, openDatabase } from '#server/platform/db/database';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { createIdempotencyKeys, requestFingerprint } from '#server/platform/idempotency/idempotency';
import { setElectionPhase } from '#server/testing/election';
import { findPostgresBin, startPostgresCluster } from '../../tests/support/postgres-cluster';
import { seedBenchRecords } from './data/records-seed';

const BATCH = Number(process.env.MICRO_BATCH ?? 50);
const ROUNDS = Number(process.env.MICRO_ROUNDS ?? 200);
const DIALECTS = (process.env.MICRO_DIALECTS ?? 'sqlite,postgres').split(',');
const SLUG = 'bolivar';

async function measure(name: 'sqlite' | 'postgres', db: Db): Promise<void> {
  const now = new Date();
  await migrateToLatest(db);
  await seedReferenceData(db, now);
  await setElectionPhase(db, 'en_curso', now);
  const ids = (await seedBenchRecords(db, 100_000, { departments: [SLUG] })).ids[SLUG] ?? [];
  const department = await db.kysely
    .selectFrom('departments')
    .select(['id', 'slug'])
    .where('slug', '=', SLUG)
    .executeTakeFirstOrThrow();
  const keys = createIdempotencyKeys(db.kysely, { days: 7, now: () => new Date() });
  const writer = createVoteWriter(db.kysely, name, {}, keys);
  const user = { id: 1, email: 'micro.validador@comando.example', role: 'staff' as const };
  let next = 0;
  const run = async (withKey: boolean, rounds: number) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let r = 0; r < rounds; r++) {
      await Promise.all(
        Array.from({ length: BATCH }, () => {
          const recordId = ids[next++] as number;
          return writer.cast({
            department,
            recordId,
            codes: ['FA', 'NR'],
            user,
            ip: '127.0.0.1',
            now: new Date(),
            idempotency: withKey
              ? {
                  itemKey: itemKey(),
                  actor: user.email,
                  fingerprint: requestFingerprint('vote', SLUG, recordId, 'FA', 'NR'),
                }
              : undefined,
          });
        }),
      );
    }
    const used = process.cpuUsage(cpu);
    const votes = rounds * BATCH;
    return `${((performance.now() - started) * 1000) / votes} µs, CPU ${(used.user + used.system) / votes} µs`;
  };
  // Warm-up, discarded.
  await run(false, 10);
  await run(true, 10);
  for (let i = 0; i < 3; i++) {
    const plain = await run(false, ROUNDS);
    const keyed = await run(true, ROUNDS);
    console.log(`${name}: sin clave ${plain}; con clave ${keyed}`.replace(/(\d+\.\d)\d*/g, '$1'));
  }
}

if (DIALECTS.includes('sqlite')) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-vote-micro-'));
  const db = await openDatabase({ dataDir, databaseUrl: undefined });
  try {
    await measure('sqlite', db);
  } finally {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
const bin = DIALECTS.includes('postgres') ? findPostgresBin() : undefined;
if (bin) {
  const cluster = await startPostgresCluster(bin);
  try {
    const db = await openDatabase({ dataDir: '', databaseUrl: cluster.url });
    try {
      await measure('postgres', db);
    } finally {
      await db.close();
    }
  } finally {
    await cluster.stop();
  }
}
