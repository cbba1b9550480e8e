import type { Readable } from 'node:stream';

export type StorageDriver = 'local' | 's3' | 'dropbox';

export interface PutOptions {
  /** 'jpg', 'heic': ends a generated key. */
  suffix: string;
  contentType: string;
  /**
   * The spec's readable path of an original ballot photo, `/<department title>/<Gobernador|AN|CLEZ>/<record
   * name>.<ext>`, already made safe (photoReadablePath). Drivers that keep readable files (Dropbox) store
   * the file there and answer a readable key; the others ignore it and generate a key.
   */
  readablePath?: string;
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
  /** Stores a whole stream under a new key. A failed or cut-off stream leaves nothing behind. */
  put(body: Readable | Buffer, options: PutOptions): Promise<StoredFile>;
  /**
   * Stores a whole stream under a key another driver made (`storage:migrate`), replacing what was there.
   * Refuses keys that are not storage keys.
   */
  putAt(key: string, body: Readable | Buffer, options: { contentType: string }): Promise<{ size: number }>;
  /** The stored bytes, or undefined when the key is unknown. */
  get(key: string): Promise<{ stream: Readable; size: number } | undefined>;
  /** Removes a stored file; unknown keys are not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

/** Keys the drivers generate: `<2 hex>/<32 hex>.<suffix>`. */
export const STORAGE_KEY = /^[0-9a-f]{2}\/[0-9a-f]{32}\.[a-z0-9]{2,5}$/;

/**
 * Readable keys: `r/<department title>/<Gobernador|AN|CLEZ>/<record name>.<ext>`, the readable path under
 * `r/`. Every segment is one safe name (no separators, no control characters, never `.` or `..`).
 */
export const READABLE_KEY = /^r(\/(?!\.)[^/\\\p{Cc}:*?"<>|]{1,120}){3}$/u;

export function isGeneratedKey(key: string): boolean {
  return STORAGE_KEY.test(key);
}

/** A key any driver accepts: generated, or readable. */
export function isStorageKey(key: string): boolean {
  return STORAGE_KEY.test(key) || (READABLE_KEY.test(key) && !key.split('/').some((s) => s === '.' || s === '..'));
}

/** `/Bolívar/AN/María Pérez.jpg` → `r/Bolívar/AN/María Pérez.jpg`, or undefined when it is not safe. */
export function readableKeyOf(readablePath: string): string | undefined {
  const key = `r${readablePath}`;
  return readablePath.startsWith('/') && isStorageKey(key) && !isGeneratedKey(key) ? key : undefined;
}

/** `r/Bolívar/AN/María Pérez.jpg` → `/Bolívar/AN/María Pérez.jpg`. */
export function readablePathOf(key: string): string | undefined {
  return READABLE_KEY.test(key) && isStorageKey(key) ? key.slice(1) : undefined;
}
