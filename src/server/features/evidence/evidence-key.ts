import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import path from 'node:path';
import type { Config } from '#server/platform/config/config';
import { keyFileContents } from '#server/platform/lib/key-file';
import { dataRoot } from '#server/platform/storage/create-photo-storage';

/**
 * The key that signs evidence packages (docs/decisions/074): Ed25519 through node:crypto. Given in the
 * environment (EVIDENCE_PRIVATE_KEY, checked at boot by the config) or made at the first start in the data
 * folder (`evidence/clave-privada.pem`, readable by the server's user only). The private key never
 * leaves the server: packages carry the public key, and the fingerprint shows in Ajustes and the log.
 */
export interface EvidenceKey {
  /** SHA-256 of the public key (DER, SubjectPublicKeyInfo), hex: `openssl pkey -pubin -outform DER | sha256sum`. */
  fingerprint: string;
  publicKeyPem: string;
  /** 'entorno' or 'carpeta de datos'. */
  source: 'entorno' | 'carpeta de datos';
  sign(data: Buffer): Buffer;
}

export function evidenceKeyFile(dataDir: string): string {
  return path.join(dataRoot(dataDir), 'evidence', 'clave-privada.pem');
}

function keyFromDataFolder(dataDir: string): KeyObject {
  const made = () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' });
  return createPrivateKey(keyFileContents(evidenceKeyFile(dataDir), made));
}

export function loadEvidenceKey(config: Pick<Config, 'dataDir' | 'evidence'>): EvidenceKey {
  const fromEnv = config.evidence?.privateKeyPem;
  const privateKey = fromEnv ? createPrivateKey(fromEnv) : keyFromDataFolder(config.dataDir);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('La clave de evidencias debe ser Ed25519.');
  const publicKey = createPublicKey(privateKey);
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return {
    fingerprint: createHash('sha256').update(der).digest('hex'),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    source: fromEnv ? 'entorno' : 'carpeta de datos',
    sign: (data) => sign(null, data, privateKey),
  };
}
