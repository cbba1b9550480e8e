import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { StorageConfig } from '#server/platform/config/config';

export type StorageDriver = 'local' | 's3' | 'dropbox';

export interface PutOptions {
  /** 'jpg', 'heic': ends a generated key. */
  suffix: string;
  contentType: string;
  /**
   * The spec's readable path of an original ballot photo, `/<department title>/<Gobernador|AN|CLEZ>/<record
   * name>.<ext>`, already made safe (photoReadablePath). Drivers that publish readable files (Dropbox)
   * also put the file there; the key is always a generated one.
   */
  readablePath?: string;
  /**
   * Aborts the upload (the person's request went away): nothing is stored. Drivers that cannot abort
   * mid-way remove the file once it is written.
   */
  signal?: AbortSignal;
}

export interface StoredFile {
  key: string;
  size: number;
  /** A link the driver published for the file (Dropbox shared link), kept with the photo. */
  sharedUrl?: string;
}

/**
 * Where photo files live. Keys are made by the storage (never taken from a person's input), so no name
 * can point outside it. Drivers: the local disk, an S3-compatible bucket and Dropbox, behind the same
 * calls, chosen by configuration without touching the routes.
 */
export interface PhotoStorage {
  readonly driver: StorageDriver;
  /** Where the files are (`s3:<endpoint>/<bucket>/<prefix>`…): copies are remembered per location. */
  readonly location: string;
  /** Stores a whole stream under a new key. A failed or cut-off stream leaves nothing behind. */
  put(body: Readable | Buffer, options: PutOptions): Promise<StoredFile>;
  /**
   * Stores a whole stream under a key another driver made (`storage:migrate`), replacing what was there.
   * Refuses anything that is not a storage key.
   */
  putAt(key: string, body: Readable | Buffer, options: { contentType: string }): Promise<{ size: number }>;
  /** The stored bytes, or undefined when the key is unknown. */
  get(key: string): Promise<{ stream: Readable; size: number } | undefined>;
  /** Removes a stored file; unknown keys are not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /**
   * Withdraws a copy the driver published (`StoredFile.sharedUrl`): the link is revoked and the file it
   * pointed to, under its readable path, is deleted. A link already gone is not an error. Only drivers
   * that publish (Dropbox) have it; the others keep nothing outside their keys.
   */
  unpublish?(sharedUrl: string): Promise<void>;
}

/** Keys the drivers generate: `<2 hex>/<32 hex>.<suffix>`. */
export const STORAGE_KEY = /^[0-9a-f]{2}\/[0-9a-f]{32}\.[a-z0-9]{2,5}$/;

export function isStorageKey(key: string): boolean {
  return STORAGE_KEY.test(key);
}

/** A new key for a file ending in `suffix` ('jpg', 'heic'). */
export function newStorageKey(suffix: string): string {
  if (!/^[a-z0-9]{2,5}$/.test(suffix)) throw new Error(`Extensión inválida: ${suffix}`);
  const id = randomBytes(17).toString('hex');
  return `${id.slice(0, 2)}/${id.slice(2)}.${suffix}`;
}

/** Where a bucket's files are, as `PhotoStorage.location` says it (without loading the AWS SDK). */
export function s3Location(config: Extract<StorageConfig, { driver: 's3' }>): string {
  return `s3:${config.endpoint ?? 'aws'}/${config.bucket}/${config.prefix}`;
}
