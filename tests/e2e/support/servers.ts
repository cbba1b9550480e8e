import os from 'node:os';
import path from 'node:path';

/**
 * The app instances the end-to-end tests run against, each on its own throwaway database:
 * - main: seeded with known content, its clock started at 23:30 in Caracas (already the next day in UTC);
 * - empty: no content at all (empty states).
 */
export const E2E_NOW = '2026-11-23T03:30:00Z';
export const E2E_TODAY = '2026-11-22';

export const E2E_SERVERS = {
  main: { name: 'main', port: 4311, url: 'http://127.0.0.1:4311', seeded: true },
  empty: { name: 'empty', port: 4312, url: 'http://127.0.0.1:4312', seeded: false },
} as const;

export type E2EServerName = keyof typeof E2E_SERVERS;

export function e2eDataDir(name: E2EServerName): string {
  return path.join(os.tmpdir(), `comando-e2e-${name}`);
}
