import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { storageKeyOfPhotoUrl } from '#server/features/candidates/candidates.service';
import { verifyAuditChain } from '#server/features/evidence/audit-verify';
import { runChange } from '#server/platform/change/change';
import type { Config } from '#server/platform/config/config';
import {
  BACKUP_FILES,
  BackupError,
  copyDatabase,
  countRows,
  type DatabaseTarget,
  restoreDatabase,
} from '#server/platform/db/backup';
import { migrateToLatest, openDatabase, sqliteFileOf } from '#server/platform/db/database';
import type { Dialect } from '#server/platform/db/dialect';
import { makePrivateDir, makePrivateDirAsync, PRIVATE_FILE_MODE } from '#server/platform/lib/private-files';
import { createCopiesRepository } from '#server/platform/replica/copies.repository';
import { recordRestoredEpoch } from '#server/platform/replica/epoch';
import { ReplicaError, restoreFromReplica } from '#server/platform/replica/litestream';
import { photoStorageFor } from '#server/platform/storage/create-photo-storage';
import { isStorageKey, type PhotoStorage } from '#server/platform/storage/photo-storage';
import { formatCount } from '#shared/platform/format';
import { namedPhotoFiles } from './backup.repository';

export const BACKUP_HELP = `Copias de seguridad
  backup <carpeta>                    Copia la base de datos mientras la app funciona (SQLite: su copia en
                                      línea; PostgreSQL: pg_dump) y las fotos que nombra, con un manifiesto
                                      (clave, tamaño y SHA-256 de cada foto, filas de cada tabla).
                                      La carpeta debe no existir o estar vacía.
  restore <carpeta>                   Restaura una copia en un DATA_DIR sin base de datos o en la base de
                                      datos vacía de DATABASE_URL, y sus fotos en el almacenamiento de
                                      STORAGE; luego comprueba las filas de cada tabla y cada foto.
  restore --desde-replica             Restaura en un DATA_DIR sin base de datos la última copia que
                                      Litestream guardó en REPLICA_URL (un bucket S3 o una carpeta).
  Cada restauración abre una época nueva de la base de datos: los teléfonos la ven y saben desde qué
  momento al servidor le puede faltar lo que ya les confirmó.`;

const MANIFEST = 'manifest.json';
const PHOTOS = 'photos';

export interface ManifestPhoto {
  key: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: 1;
  createdAt: string;
  dialect: Dialect;
  /** Rows of each table in the copy. */
  tables: Record<string, number>;
  /** Every photo file the copied database names, copied into `photos/` under its key. */
  photos: ManifestPhoto[];
}

type BackupConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'storage'> & Partial<Pick<Config, 'replica'>>;
type Out = (line: string) => void;

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  heic: 'image/heic',
  png: 'image/png',
  webp: 'image/webp',
};
const contentTypeOf = (key: string) => CONTENT_TYPES[key.split('.').pop() ?? ''] ?? 'application/octet-stream';

/** Streams a source into a file, answering its size and SHA-256 as written. */
async function writeHashed(source: NodeJS.ReadableStream, file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  await makePrivateDirAsync(path.dirname(file));
  await pipeline(
    source,
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    }),
    fs.createWriteStream(file, { flags: 'wx', mode: PRIVATE_FILE_MODE }),
  );
  return { size, sha256: hash.digest('hex') };
}

async function hashOf(stream: NodeJS.ReadableStream): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

function folderSize(folder: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * `backup <folder>`: the database copied at one instant while the app runs, then every photo file that
 * copy names, read from the configured storage into `photos/<key>` with its size and SHA-256 in the
 * manifest. Photos are never changed once stored (a new photo gets a new key), so those the copy names
 * are all there when they are read, whatever was written since.
 */
export async function takeBackup(config: BackupConfig, folder: string, out: Out, now = () => new Date()) {
  const started = Date.now();
  if (fs.existsSync(folder) && fs.readdirSync(folder).length > 0) {
    throw new BackupError(`${folder} no está vacía: elige una carpeta nueva para cada copia.`);
  }
  makePrivateDir(folder);
  const createdAt = now().toISOString();
  const copy = await copyDatabase(config, folder, namedPhotoFiles);
  const named = [...copy.read.photoKeys, ...copy.read.candidatePhotoUrls.map((url) => storageKeyOfPhotoUrl(url) ?? '')];
  const keys = [...new Set(named)].filter(isStorageKey).sort();
  const storage = photoStorageFor(config.storage, config.dataDir);
  const photos: ManifestPhoto[] = [];
  const missing: string[] = [];
  for (const key of keys) {
    const stored = await storage.get(key);
    if (!stored) {
      missing.push(key);
      continue;
    }
    photos.push({ key, ...(await writeHashed(stored.stream, path.join(folder, PHOTOS, key))) });
  }
  const manifest: BackupManifest = { format: 1, createdAt, dialect: copy.dialect, tables: copy.tables, photos };
  fs.writeFileSync(path.join(folder, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  const rows = Object.values(copy.tables).reduce((a, b) => a + b, 0);
  await recordBackup(config, {
    takenAt: createdAt,
    finishedAt: now().toISOString(),
    rows,
    photos: photos.length,
    missing,
  });
  out(
    `Copia lista en ${folder}: ${formatCount(rows)} filas de ${Object.keys(copy.tables).length} tablas y ` +
      `${formatCount(photos.length)} fotos, ${megabytes(folderSize(folder))} en ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
  // A file the database names but the storage lacks was missing before this copy: said, not hidden.
  for (const key of missing) out(`Falta en el almacenamiento (la base de datos la nombra): ${key}`);
  return { manifest, missing };
}

/**
 * The backup, kept in the database it copied (after the copy, so the copy does not hold it): without a
 * continuous copy, Jornada says how old the last whole one is (decision 106).
 */
async function recordBackup(
  config: BackupConfig,
  backup: { takenAt: string; finishedAt: string; rows: number; photos: number; missing: string[] },
): Promise<void> {
  const db = await openDatabase({ ...config, litestream: config.replica !== undefined });
  try {
    await runChange(db.kysely, async ({ trx, audit }) => {
      await createCopiesRepository(trx).addBackup({ ...backup, missingPhotos: backup.missing.length });
      await audit({
        actorEmail: 'cli',
        action: 'backup.taken',
        target: backup.takenAt,
        details: { rows: backup.rows, photos: backup.photos, missingPhotos: backup.missing.length },
        at: new Date(backup.finishedAt),
      });
    });
  } finally {
    await db.close();
  }
}

function readManifest(folder: string): BackupManifest {
  const file = path.join(folder, MANIFEST);
  if (!fs.existsSync(file)) throw new BackupError(`${folder} no es una copia de Comando: falta ${MANIFEST}.`);
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest;
  if (manifest.format !== 1 || !BACKUP_FILES[manifest.dialect]) {
    throw new BackupError(`${MANIFEST} no tiene un formato conocido.`);
  }
  return manifest;
}

/** Each photo of the copy, read back and checked against the manifest before anything is restored. */
async function checkCopiedPhotos(folder: string, photos: ManifestPhoto[]): Promise<void> {
  for (const photo of photos) {
    if (!isStorageKey(photo.key)) throw new BackupError(`Clave de foto inválida en el manifiesto: ${photo.key}`);
    const file = path.join(folder, PHOTOS, photo.key);
    const found = fs.existsSync(file) ? await hashOf(fs.createReadStream(file)) : undefined;
    if (found?.sha256 !== photo.sha256 || found.size !== photo.size) {
      throw new BackupError(`La foto ${photo.key} de la copia falta o no es la del manifiesto: nada se restauró.`);
    }
  }
}

/** Photos whose bytes in the storage differ from the manifest (or are missing). */
async function photosNotAsCopied(storage: PhotoStorage, photos: ManifestPhoto[]): Promise<string[]> {
  const wrong: string[] = [];
  for (const photo of photos) {
    const stored = await storage.get(photo.key);
    const found = stored ? await hashOf(stored.stream) : undefined;
    if (found?.sha256 !== photo.sha256 || found.size !== photo.size) wrong.push(photo.key);
  }
  return wrong;
}

/**
 * `restore <folder>`: the copy's photos are checked first, then the database goes into an empty data
 * folder or database and the photos into the configured storage; then every table's rows and every
 * photo are compared with the manifest. Answers the problems found (none: the restore is whole).
 */
export async function restoreBackup(config: BackupConfig, folder: string, out: Out): Promise<string[]> {
  const started = Date.now();
  const manifest = readManifest(folder);
  await checkCopiedPhotos(folder, manifest.photos);
  const target: DatabaseTarget = { dataDir: config.dataDir, databaseUrl: config.databaseUrl };
  await restoreDatabase(target, folder, manifest.dialect);
  const storage = photoStorageFor(config.storage, config.dataDir);
  for (const photo of manifest.photos) {
    await storage.putAt(photo.key, fs.createReadStream(path.join(folder, PHOTOS, photo.key)), {
      contentType: contentTypeOf(photo.key),
    });
  }

  const problems: string[] = [];
  const counts = await countRows(target);
  for (const table of new Set([...Object.keys(manifest.tables), ...Object.keys(counts)])) {
    if (counts[table] !== manifest.tables[table]) {
      problems.push(
        `Tabla ${table}: ${counts[table] ?? 'no existe'} filas, la copia tiene ${manifest.tables[table] ?? 'ninguna'}.`,
      );
    }
  }
  for (const key of await photosNotAsCopied(storage, manifest.photos)) {
    problems.push(`Foto ${key}: no coincide con el manifiesto.`);
  }
  // The audit log proves its own rows and agrees with the votes and photos restored (audit:verify).
  const restored = await openDatabase(target);
  try {
    const chain = await verifyAuditChain(restored.kysely, { storage });
    for (const problem of chain.problems) problems.push(`Auditoría: ${problem.message}`);
  } finally {
    await restored.close();
  }
  // A new epoch from the copy's instant: phones learn what the server may lack (decision 106).
  const epochDb = await openDatabase(target);
  try {
    const epoch = await recordRestoredEpoch(epochDb, {
      cause: 'copia',
      restoredUntil: manifest.createdAt,
      now: new Date(),
      actorEmail: 'cli',
    });
    out(`Época ${epoch.number} de la base de datos, desde la copia del ${manifest.createdAt}.`);
  } finally {
    await epochDb.close();
  }
  if (problems.length === 0) {
    out(
      `Restaurada la copia del ${manifest.createdAt}: ${Object.keys(manifest.tables).length} tablas con las mismas ` +
        `filas y ${formatCount(manifest.photos.length)} fotos idénticas, en ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  } else {
    for (const p of problems) out(p);
  }
  return problems;
}

/**
 * `restore --desde-replica`: Litestream's latest copy (REPLICA_URL) into an empty data folder, brought up
 * to this version's schema, and a new epoch from the last change it holds. SQLite only: on PostgreSQL the
 * copy is a standby, promoted instead (README).
 */
export async function restoreFromReplicaCommand(
  config: BackupConfig,
  out: Out,
  options: Parameters<typeof migrateToLatest>[1] = {},
  now = () => new Date(),
): Promise<number> {
  if (config.databaseUrl) {
    throw new ReplicaError(
      'Con DATABASE_URL (PostgreSQL) la copia es el servidor en espera: promuévelo y apunta DATABASE_URL a él (README, «Off-machine copy»).',
    );
  }
  if (!config.replica) {
    throw new ReplicaError(
      'Falta REPLICA_URL: indica de dónde restaurar (s3://<bucket>/<carpeta> o file:///<carpeta>).',
    );
  }
  const started = Date.now();
  const file = sqliteFileOf(config.dataDir);
  if (!(await restoreFromReplica(file, config.replica))) {
    out('La copia de REPLICA_URL está vacía: no hay nada que restaurar.');
    return 1;
  }
  const db = await openDatabase({ ...config, litestream: true });
  try {
    await migrateToLatest(db, options);
    const epoch = await recordRestoredEpoch(db, {
      cause: 'replica',
      restoredUntil: null,
      now: now(),
      actorEmail: 'cli',
    });
    out(
      `Restaurada la copia de Litestream en ${file} en ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
        `época ${epoch.number} de la base de datos, con los cambios hasta ${epoch.restoredUntil ?? 'el principio'}. ` +
        'Inicia el servidor (npm start): volverá a copiar a REPLICA_URL.',
    );
    return 0;
  } finally {
    await db.close();
  }
}
