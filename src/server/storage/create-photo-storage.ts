import os from 'node:os';
import path from 'node:path';
import { createLocalDiskStorage } from './local-disk-storage';
import type { PhotoStorage } from './photo-storage';

/** DATA_DIR, or a temporary folder when none is configured (API-only tests on PostgreSQL). */
export function dataRoot(dataDir: string): string {
  return dataDir || path.join(os.tmpdir(), 'comando-data');
}

/**
 * The configured photo storage. Only the local disk (`DATA_DIR/photos`) exists today; an S3-compatible
 * or Dropbox driver is chosen here, from the configuration, when it arrives.
 */
export function createPhotoStorage(options: { dataDir: string }): PhotoStorage {
  return createLocalDiskStorage(path.join(dataRoot(options.dataDir), 'photos'));
}

/** Where uploads are received before they are checked and stored (same disk as the data). */
export function uploadTempDir(dataDir: string): string {
  return path.join(dataRoot(dataDir), 'uploads');
}
