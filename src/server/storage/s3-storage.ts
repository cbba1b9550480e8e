import type { StorageConfig } from '../config';
import type { PhotoStorage } from './photo-storage';

type S3Config = Extract<StorageConfig, { driver: 's3' }>;

/** Photos in S3. */
export function createS3Storage(_config: S3Config): PhotoStorage {
  const missing = async (): Promise<never> => {
    throw new Error('STORAGE=s3 todavía no está disponible');
  };
  return { driver: 's3', put: missing, putAt: missing, get: missing, delete: missing, exists: missing };
}
