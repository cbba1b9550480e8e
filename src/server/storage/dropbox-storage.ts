import type { StorageConfig } from '../config';
import type { PhotoStorage } from './photo-storage';

type DropboxConfig = Extract<StorageConfig, { driver: 'dropbox' }>;

/** Photos in Dropbox. */
export function createDropboxStorage(_config: DropboxConfig): PhotoStorage {
  const missing = async (): Promise<never> => {
    throw new Error('STORAGE=dropbox todavía no está disponible');
  };
  return { driver: 'dropbox', put: missing, putAt: missing, get: missing, delete: missing, exists: missing };
}
