// `npx tsx scripts/bench/purge.micro.ts`: 'Borrar datos personales' over 100,000 records (MICRO_ROWS) on a
// throwaway SQLite database (DATABASE_URL=postgres://… for PostgreSQL), with no server: the records are
// loaded once, the purge runs once (it is done once in an election's life, so the first run is the one
// that counts), and the time and CPU are printed. Not a suite of `npm run bench`: no HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { createRecordsPurgeService } from '#server/features/records-admin/records-purge.service';
import { migrateToLatest, openDatabase } from '#server/platform/db/database';
import { seedReferenceData } from '#server/platform/db/seed/reference';

const ROWS = Number(process.env.MICRO_ROWS ?? 100_000);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-purge-bench-'));
const db = await openDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL });
try {
  await migrateToLatest(db);
  await seedReferenceData(db, new Date());
  const repo = createRecordsRepository(db.kysely);
  const departments = await repo.listMunicipalities();
  for (let start = 0; start < ROWS; start += 5_000) {
    const rows = Array.from({ length: Math.min(5_000, ROWS - start) }, (_, j) => {
      const i = start + j;
      return {
        departmentId: departments[i % departments.length]?.id as number,
        comunidad: `Sector ${i % 300}`,
        nombre: `Persona Número ${i} Apellido`,
        ubch: `UBCH ${110_100_000 + (i % 900)}`,
        telefono: `0414-${String(1_000_000 + i).padStart(7, '0')}`,
      };
    });
    await repo.insertMany(rows, new Date());
  }
  const cpu = process.cpuUsage();
  const started = performance.now();
  // The day is not closed in this throwaway database: the gate (one read of the phase) is left open, the
  // purge itself is what is measured.
  const done = await createRecordsPurgeService(db.kysely, () => new Date(), { gate: async () => null }).purge(
    { photos: 'keep' },
    { email: 'bench', ip: null },
  );
  const ms = Math.round(performance.now() - started);
  const used = process.cpuUsage(cpu);
  console.table([
    { base: db.dialect, registros: done.records, ms, 'cpu ms': Math.round((used.user + used.system) / 1000) },
  ]);
} finally {
  await db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
