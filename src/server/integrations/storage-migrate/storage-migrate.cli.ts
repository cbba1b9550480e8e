import type { Kysely } from 'kysely';
import { type Config, ConfigError, loadConfig } from '#server/platform/config/config';
import type { Database } from '#server/platform/db/schema';
import { photoStorageFor } from '#server/platform/storage/create-photo-storage';
import type { StorageDriver } from '#server/platform/storage/photo-storage';
import { formatCount } from '#shared/platform/format';
import { type MigrateReport, migratePhotos } from './storage-migrate';

export const STORAGE_HELP = `Fotos
  storage:migrate --to <local|s3|dropbox>
                                      Copia las fotos del almacenamiento configurado (STORAGE) al indicado,
                                      con las variables de ese destino en el entorno (S3_…, DROPBOX_…).
                                      Comprueba cada copia por sha256; si se interrumpe, al repetir la
                                      orden sigue con las que faltan. Luego: cambiar STORAGE y reiniciar.`;

export interface StorageCliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

export interface StorageCliDeps {
  /** Defaults to the environment's configuration (the source is its STORAGE). */
  config?: Config;
  /** Where the target's settings are read from; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Opens a driver (tests wrap the target to make it fail or alter bytes). */
  storageFor?: typeof photoStorageFor;
}

const DRIVERS: readonly StorageDriver[] = ['local', 's3', 'dropbox'];
const USAGE = 'Uso: storage:migrate --to <local|s3|dropbox>';
const MAX_LISTED = 30;

function listKeys(io: StorageCliIo, title: string, lines: string[]): void {
  if (lines.length === 0) return;
  io.out(`${title} (${formatCount(lines.length)}):`);
  for (const line of lines.slice(0, MAX_LISTED)) io.out(`  ${line}`);
  if (lines.length > MAX_LISTED) io.out(`  … y ${formatCount(lines.length - MAX_LISTED)} más.`);
}

/** The final report, in Spanish, for the operator. Returns the exit code. */
function printReport(io: StorageCliIo, report: MigrateReport, from: StorageDriver, to: StorageDriver): number {
  io.out(
    `Copiadas y verificadas: ${formatCount(report.copied)} · ya estaban verificadas: ${formatCount(report.alreadyCopied)} · ` +
      `faltan en el origen: ${formatCount(report.missing.length)} · con errores: ${formatCount(report.failed.length)}`,
  );
  listKeys(io, `Fotos que la base de datos nombra y no están en el origen (${from})`, report.missing);
  listKeys(
    io,
    'Errores',
    report.failed.map((f) => `${f.key}: ${f.reason}`),
  );
  if (report.stopped) io.out(`La copia se detuvo: el destino (${to}) falló con demasiadas fotos seguidas.`);
  if (report.failed.length > 0 || report.stopped) {
    io.err(
      `No cambies STORAGE todavía: corrige el problema y vuelve a ejecutar la orden (las fotos ya verificadas no se copian de nuevo).`,
    );
    return 1;
  }
  io.out(`Listo. Pon STORAGE=${to} en el entorno del servidor (con sus variables) y reinícialo.`);
  return 0;
}

/** `npm run cli -- storage:migrate --to <driver>`. */
export async function runStorageMigrate(
  args: string[],
  db: Kysely<Database>,
  io: StorageCliIo,
  now: () => Date = () => new Date(),
  deps: StorageCliDeps = {},
): Promise<number> {
  const i = args.indexOf('--to');
  const value = i >= 0 ? args[i + 1] : undefined;
  const extra = args.filter((_, j) => i < 0 || (j !== i && j !== i + 1));
  if (!value || extra.length > 0) {
    io.err(extra.length > 0 ? `Argumento desconocido: ${extra[0]}. ${USAGE}` : USAGE);
    return 2;
  }
  const to = DRIVERS.find((d) => d === value);
  if (!to) {
    io.err(`Destino desconocido: ${value}. ${USAGE}`);
    return 2;
  }

  let config: Config;
  let targetConfig: Config;
  try {
    config = deps.config ?? loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
  const from = config.storage.driver;
  if (to === from) {
    io.err(`Las fotos ya están en ${to} (STORAGE=${from}): el destino debe ser otro almacenamiento.`);
    return 1;
  }
  try {
    // The target's settings are the ones STORAGE=<target> would need, read from the same environment.
    targetConfig = loadConfig({ ...(deps.env ?? process.env), STORAGE: to });
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`Para copiar las fotos a ${to} faltan ajustes en el entorno (los mismos que pide STORAGE=${to}):`);
      for (const problem of error.problems) io.err(`  - ${problem}`);
      return 1;
    }
    throw error;
  }

  const open = deps.storageFor ?? photoStorageFor;
  const source = open(config.storage, config.dataDir);
  const target = open(targetConfig.storage, config.dataDir);
  io.out(`Copiando las fotos de ${from} a ${to}.`);
  let lastShown = 0;
  const report = await migratePhotos({
    db,
    source,
    target,
    now,
    onProgress(done, pending) {
      // About twenty progress lines whatever the number of photos, and always the last one.
      if (done === pending || done - lastShown >= Math.max(1, Math.ceil(pending / 20))) {
        lastShown = done;
        io.out(`Copiando fotos: ${formatCount(done)} de ${formatCount(pending)} …`);
      }
    },
  });
  if (report.total === report.alreadyCopied) {
    io.out(`No hay fotos por copiar: ${formatCount(report.total)} ya estaban copiadas y verificadas en ${to}.`);
  }
  return printReport(io, report, from, to);
}
