import os from 'node:os';
import path from 'node:path';

/**
 * The app instances the end-to-end tests run against, each on its own throwaway database:
 * - main: seeded with known content, its clock started at 23:30 in Caracas (already the next day in UTC);
 * - empty: no content at all (empty states);
 * - wordpress: notas read from a local WordPress contract server with 250 posts;
 * - s3, dropbox: seeded like main, photos kept by the S3 or the Dropbox driver, each against its local
 *   server (the validation test runs unchanged against both);
 * - firebase: seeded like main, passwords checked by Firebase Auth (a local Identity Toolkit stand-in).
 */
// 8:30 p. m. in Caracas, already tomorrow in UTC: hours before the page's day changes, however long the run.
export const E2E_NOW = '2026-11-23T00:30:00Z';
export const E2E_TODAY = '2026-11-22';

// E2E_PORT_BASE lets two runs share a machine without fighting over ports.
const BASE = Number(process.env.E2E_PORT_BASE ?? 4311);
const server = <N extends string>(name: N, offset: number, seeded: boolean, env: Record<string, string> = {}) => ({
  name,
  port: BASE + offset,
  url: `http://127.0.0.1:${BASE + offset}`,
  seeded,
  env,
});

export const WORDPRESS_CONTRACT = { port: BASE + 2, url: `http://127.0.0.1:${BASE + 2}`, posts: 250 } as const;

const local = (offset: number) => ({ port: BASE + offset, url: `http://127.0.0.1:${BASE + offset}` });
/** A local S3-compatible server (s3rver), its bucket and credentials. */
export const S3_LOCAL = {
  ...local(7),
  bucket: 'comando-e2e',
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
} as const;
/** A local server speaking Dropbox's HTTP contract (OAuth token, files, sharing). */
export const DROPBOX_CONTRACT = {
  ...local(8),
  appKey: 'e2e-app-key',
  appSecret: 'e2e-app-secret',
  refreshToken: 'e2e-refresh-token',
} as const;
/** A local server speaking Firebase Auth's Identity Toolkit contract, and publishing its signing keys. */
export const FIREBASE_CONTRACT = { ...local(9), projectId: 'comando-e2e', apiKey: 'e2e-web-api-key' } as const;

export const E2E_SERVERS = {
  main: server('main', 0, true),
  empty: server('empty', 1, false),
  // Notas from a local server speaking WordPress' REST contract.
  wordpress: server('wordpress', 3, false, { NOTAS_SOURCE: 'wordpress', WORDPRESS_URL: WORDPRESS_CONTRACT.url }),
  s3: server('s3', 4, true, {
    STORAGE: 's3',
    S3_ENDPOINT: S3_LOCAL.url,
    S3_BUCKET: S3_LOCAL.bucket,
    S3_ACCESS_KEY_ID: S3_LOCAL.accessKeyId,
    S3_SECRET_ACCESS_KEY: S3_LOCAL.secretAccessKey,
  }),
  dropbox: server('dropbox', 5, true, {
    STORAGE: 'dropbox',
    DROPBOX_APP_KEY: DROPBOX_CONTRACT.appKey,
    DROPBOX_APP_SECRET: DROPBOX_CONTRACT.appSecret,
    DROPBOX_REFRESH_TOKEN: DROPBOX_CONTRACT.refreshToken,
    DROPBOX_API_URL: DROPBOX_CONTRACT.url,
    DROPBOX_CONTENT_URL: DROPBOX_CONTRACT.url,
  }),
  firebase: server('firebase', 6, true, {
    AUTH_PROVIDER: 'firebase',
    FIREBASE_PROJECT_ID: FIREBASE_CONTRACT.projectId,
    FIREBASE_API_KEY: FIREBASE_CONTRACT.apiKey,
    FIREBASE_AUTH_EMULATOR_URL: FIREBASE_CONTRACT.url,
    FIREBASE_JWKS_URL: `${FIREBASE_CONTRACT.url}/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com`,
  }),
};

export type E2EServerName = keyof typeof E2E_SERVERS;

export function e2eDataDir(name: E2EServerName): string {
  return path.join(os.tmpdir(), `comando-e2e-${E2E_SERVERS[name].port}-${name}`);
}

/** Where the seeded instances' database is made once per run (seed-template.ts), then copied. */
export function e2eTemplateDir(): string {
  return path.join(os.tmpdir(), `comando-e2e-${BASE}-plantilla`);
}
