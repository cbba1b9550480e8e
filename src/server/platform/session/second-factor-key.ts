import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { keyFileContents } from '#server/platform/lib/key-file';
import { createSettingsRepository } from '#server/platform/settings/settings.repository';
import { dataRoot } from '#server/platform/storage/create-photo-storage';

/**
 * The key that encrypts the TOTP secrets in the database (docs/decisions/086): AES-256-GCM through
 * node:crypto. Given in the environment (SECOND_FACTOR_KEY, 32 bytes in base64, checked at boot by the
 * config) or made at the first start in the data folder (`second-factor/clave.b64`, readable by the
 * server's user only), like the evidence key. It never leaves the server.
 */
export const SECOND_FACTOR_KEY_BYTES = 32;

/** What a sealed secret starts with; a TOTP secret (base32: A-Z, 2-7) never does. */
const SEALED_PREFIX = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The key cannot open what the database holds: another key, or a value that was changed. */
export class SecondFactorKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecondFactorKeyError';
  }
}

export const WRONG_KEY_MESSAGE =
  'La clave del segundo factor no es la que cifró los secretos guardados: usa la misma SECOND_FACTOR_KEY ' +
  '(o el mismo archivo second-factor/clave.b64 de la carpeta de datos) en cada instancia y tras restaurar una copia.';

export interface SecondFactorKey {
  source: 'entorno' | 'carpeta de datos';
  /** A person's TOTP secret as stored: `v1:` and base64 of nonce, tag and ciphertext. */
  seal(secret: string, userId: number): string;
  /** The secret back; throws SecondFactorKeyError for another key, another person's value or plain text. */
  open(stored: string, userId: number): string;
}

export function secondFactorKeyFile(dataDir: string): string {
  return path.join(dataRoot(dataDir), 'second-factor', 'clave.b64');
}

/** Whether `value` is 32 bytes written in base64 (what SECOND_FACTOR_KEY must be). */
export function isSecondFactorKey(value: string): boolean {
  return /^[A-Za-z0-9+/]{43}=$/.test(value) && Buffer.from(value, 'base64').length === SECOND_FACTOR_KEY_BYTES;
}

function keyFromDataFolder(dataDir: string): Buffer {
  const file = secondFactorKeyFile(dataDir);
  const made = () => `${randomBytes(SECOND_FACTOR_KEY_BYTES).toString('base64')}\n`;
  const text = keyFileContents(file, made).toString('utf8').trim();
  if (!isSecondFactorKey(text)) {
    throw new SecondFactorKeyError(`${file} no contiene una clave de 32 bytes en base64.`);
  }
  return Buffer.from(text, 'base64');
}

/**
 * The secret is bound to its person (additional data of GCM): a value copied into another person's row
 * does not open there.
 */
const boundTo = (userId: number) => Buffer.from(`comando:totp:${userId}`);

export function secondFactorKeyOf(key: Buffer, source: SecondFactorKey['source']): SecondFactorKey {
  return {
    source,
    seal(secret, userId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(boundTo(userId));
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
    },
    open(stored, userId) {
      if (!stored.startsWith(SEALED_PREFIX)) {
        throw new SecondFactorKeyError('Un secreto del segundo factor está guardado sin cifrar.');
      }
      const raw = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(boundTo(userId));
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecondFactorKeyError(WRONG_KEY_MESSAGE);
      }
    },
  };
}

/** SECOND_FACTOR_KEY, or the key of the data folder (made now if there is none). */
export function loadSecondFactorKey(config: {
  dataDir: string;
  secondFactorKey?: string | undefined;
}): SecondFactorKey {
  const fromEnv = config.secondFactorKey;
  return fromEnv
    ? secondFactorKeyOf(Buffer.from(fromEnv, 'base64'), 'entorno')
    : secondFactorKeyOf(keyFromDataFolder(config.dataDir), 'carpeta de datos');
}

/** The settings row holding a value sealed with the key: a later start with another key is refused. */
const KEY_CHECK_SETTING = 'second_factor_key_check';
const KEY_CHECK_TEXT = 'comando';

/**
 * At start, after the migrations: the key must open what it sealed before. The first start stores a
 * value sealed with it; every later start (every instance, a restored copy) opens it, or stops with
 * WRONG_KEY_MESSAGE before anyone signs in.
 */
export async function checkSecondFactorKey(db: Kysely<Database>, key: SecondFactorKey, now: Date): Promise<void> {
  const settings = createSettingsRepository(db);
  // Two instances starting at once: the one that loses the insert checks the winner's value.
  await settings.addIfAbsent(KEY_CHECK_SETTING, key.seal(KEY_CHECK_TEXT, 0), now);
  const stored = await settings.get(KEY_CHECK_SETTING);
  if (stored === undefined || key.open(stored, 0) !== KEY_CHECK_TEXT) throw new SecondFactorKeyError(WRONG_KEY_MESSAGE);
}
