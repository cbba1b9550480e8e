import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';

export const STORAGE_HELP = `Fotos
  storage:migrate --to <local|s3|dropbox>
                                      Copia las fotos del almacenamiento configurado (STORAGE) al indicado.`;

export interface StorageCliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

export interface StorageCliDeps {
  config?: Config;
}

/** `npm run cli -- storage:migrate --to <driver>`. */
export async function runStorageMigrate(
  _args: string[],
  _db: Kysely<Database>,
  io: StorageCliIo,
  _now: () => Date = () => new Date(),
  _deps: StorageCliDeps = {},
): Promise<number> {
  io.err('storage:migrate todavía no está disponible.');
  return 1;
}
