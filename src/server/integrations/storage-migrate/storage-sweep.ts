import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { storageKeyOfPhotoUrl } from '#server/features/candidates/candidates.service';
import { listPhotoFileKeys } from '#server/features/photos/photos.service';
import type { Config } from '#server/platform/config/config';
import type { Database } from '#server/platform/db/schema';
import { dataRoot, uploadTempDir } from '#server/platform/storage/create-photo-storage';
import { type SweepReport, sweepLocalStorage } from '#server/platform/storage/local-sweep';
import { formatCount } from '#shared/platform/format';
import { createStorageMigrateRepository } from './storage-migrate.repository';

/**
 * Sweeps what a crash left in local storage (local-sweep.ts): every key a ballot photo (current or
 * replaced) or a candidate names is kept. The keys are read before the folders are listed, so a photo
 * stored meanwhile is at worst young (and kept by the grace period), never mistaken for old.
 */
export async function sweepStorage(
  db: Kysely<Database>,
  config: Pick<Config, 'dataDir' | 'storage'>,
  options: { now: Date; dryRun?: boolean; graceMs?: number },
): Promise<SweepReport> {
  const repo = createStorageMigrateRepository(db);
  const named = new Set(await listPhotoFileKeys(db));
  for (const url of await repo.listCandidatePhotoUrls()) {
    const key = storageKeyOfPhotoUrl(url);
    if (key) named.add(key);
  }
  return sweepLocalStorage({
    photosDir: config.storage.driver === 'local' ? path.join(dataRoot(config.dataDir), 'photos') : undefined,
    uploadsDir: uploadTempDir(config.dataDir),
    isNamed: (key) => named.has(key),
    ...options,
  });
}

/** The sweep at every start, in the background; what it found and removed goes to the log. */
export async function sweepStorageAtStart(
  db: Kysely<Database>,
  config: Pick<Config, 'dataDir' | 'storage' | 'now'>,
  log: FastifyBaseLogger,
): Promise<void> {
  try {
    const report = await sweepStorage(db, config, { now: config.now() });
    const found = report.orphans.length + report.parts.length;
    if (found === 0 && report.unknown.length === 0) return;
    log.warn(
      {
        orphans: report.orphans.map((f) => f.name),
        parts: report.parts.map((f) => f.name),
        removed: report.removed,
        unknown: report.unknown,
      },
      `storage sweep: ${found} leftover files (photos no row names, unfinished .part files), ${report.removed.length} removed; younger ones are kept until the grace period ends`,
    );
  } catch (error) {
    log.error({ err: error }, 'storage sweep failed');
  }
}

export const STORAGE_CHECK_HELP = `  storage:check [--dry-run]           Lista las fotos que ninguna fila nombra y los archivos .part de subidas
                                      que no terminaron, y borra los de más de 24 horas (--dry-run: solo
                                      lista). El servidor lo hace también al arrancar.`;

/** `npm run cli -- storage:check [--dry-run]`. Returns the exit code. */
export async function runStorageCheck(
  args: string[],
  db: Kysely<Database>,
  config: Pick<Config, 'dataDir' | 'storage'>,
  io: { out: (line: string) => void; err: (line: string) => void },
  now: () => Date,
): Promise<number> {
  const extra = args.filter((a) => a !== '--dry-run');
  if (extra.length > 0) {
    io.err(`Argumento desconocido: ${extra[0]}. Uso: storage:check [--dry-run]`);
    return 2;
  }
  const dryRun = args.includes('--dry-run');
  if (config.storage.driver !== 'local') {
    io.out(`Las fotos están en ${config.storage.driver}: solo se revisa la carpeta de subidas del servidor.`);
  }
  const report = await sweepStorage(db, config, { now: now(), dryRun });
  const removed = new Set(report.removed);
  const line = (f: { name: string; size: number; modifiedAt: Date }) =>
    `  ${f.name}\t${formatCount(f.size)} bytes\t${f.modifiedAt.toISOString()}${removed.has(f.name) ? '\tborrado' : ''}`;
  io.out(`Fotos que ninguna fila nombra: ${formatCount(report.orphans.length)}`);
  for (const f of report.orphans) io.out(line(f));
  io.out(`Archivos .part de escrituras o subidas sin terminar: ${formatCount(report.parts.length)}`);
  for (const f of report.parts) io.out(line(f));
  if (report.unknown.length > 0) {
    io.out(`Otros archivos (no se tocan): ${formatCount(report.unknown.length)}`);
    for (const name of report.unknown) io.out(`  ${name}`);
  }
  const leftovers = report.orphans.length + report.parts.length;
  if (dryRun) io.out('Sin cambios (--dry-run).');
  else if (leftovers > 0) {
    io.out(
      `Borrados: ${formatCount(report.removed.length)}. Los de menos de 24 horas se conservan: pueden ser subidas en curso.`,
    );
  }
  return 0;
}
