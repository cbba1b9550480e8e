import os from 'node:os';
import path from 'node:path';
import type { StorageConfig } from '#server/platform/config/config';
import { createDropboxStorage } from './dropbox-storage';
import { createLocalDiskStorage } from './local-disk-storage';
import { type PhotoStorage, s3Location } from './photo-storage';

/** DATA_DIR, or a temporary folder when none is configured (API-only tests on PostgreSQL). */
export function dataRoot(dataDir: string): string {
  return dataDir || path.join(os.tmpdir(), 'comando-data');
}

const shared = new Map<string, PhotoStorage>();

/**
 * The configured photo storage: `DATA_DIR/photos` on the local disk, an S3-compatible bucket, or Dropbox.
 * One instance per configuration, so every route shares one client (and, for Dropbox, one access token).
 */
export function createPhotoStorage(options: { dataDir: string; storage?: StorageConfig }): PhotoStorage {
  const config = options.storage ?? { driver: 'local' };
  const id = JSON.stringify([config, config.driver === 'local' ? dataRoot(options.dataDir) : '']);
  let storage = shared.get(id);
  if (!storage) {
    storage = photoStorageFor(config, options.dataDir);
    shared.set(id, storage);
  }
  return storage;
}

/** A fresh driver for one configuration (storage:migrate opens the source and the target this way). */
export function photoStorageFor(config: StorageConfig, dataDir: string): PhotoStorage {
  switch (config.driver) {
    case 's3':
      // The AWS SDK weighs ~20 MB in memory: loaded on first use, never on the other drivers.
      return lazyStorage('s3', s3Location(config), async () => (await import('./s3-storage')).createS3Storage(config));
    case 'dropbox':
      return createDropboxStorage(config);
    default:
      return createLocalDiskStorage(path.join(dataRoot(dataDir), 'photos'));
  }
}

/** Where uploads are received before they are checked and stored (same disk as the data). */
export function uploadTempDir(dataDir: string): string {
  return path.join(dataRoot(dataDir), 'uploads');
}

/** A driver whose module is loaded on its first call; the calls wait for it. */
function lazyStorage(
  driver: PhotoStorage['driver'],
  location: string,
  load: () => Promise<PhotoStorage>,
): PhotoStorage {
  let loaded: Promise<PhotoStorage> | undefined;
  const real = () => {
    loaded ??= load();
    return loaded;
  };
  return {
    driver,
    location,
    put: async (body, options) => (await real()).put(body, options),
    putAt: async (key, body, options) => (await real()).putAt(key, body, options),
    get: async (key) => (await real()).get(key),
    delete: async (key) => (await real()).delete(key),
    exists: async (key) => (await real()).exists(key),
  };
}
