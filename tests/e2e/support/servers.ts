import os from 'node:os';
import path from 'node:path';

/**
 * The app instances the end-to-end tests run against, each on its own throwaway database:
 * - main: seeded with known content, its clock started at 23:30 in Caracas (already the next day in UTC);
 * - empty: no content at all (empty states);
 * - wordpress: notas read from a local WordPress contract server with 250 posts.
 */
export const E2E_NOW = '2026-11-23T03:30:00Z';
export const E2E_TODAY = '2026-11-22';

// E2E_PORT_BASE lets two runs share a machine without fighting over ports.
const BASE = Number(process.env.E2E_PORT_BASE ?? 4311);
const server = (name: string, offset: number, seeded: boolean, env: Record<string, string> = {}) => ({
  name,
  port: BASE + offset,
  url: `http://127.0.0.1:${BASE + offset}`,
  seeded,
  env,
});

export const WORDPRESS_CONTRACT = { port: BASE + 2, url: `http://127.0.0.1:${BASE + 2}`, posts: 250 } as const;

export const E2E_SERVERS = {
  main: server('main', 0, true),
  empty: server('empty', 1, false),
  // Notas from a local server speaking WordPress' REST contract.
  wordpress: server('wordpress', 3, false, { NOTAS_SOURCE: 'wordpress', WORDPRESS_URL: WORDPRESS_CONTRACT.url }),
};

export type E2EServerName = keyof typeof E2E_SERVERS;

export function e2eDataDir(name: E2EServerName): string {
  return path.join(os.tmpdir(), `comando-e2e-${E2E_SERVERS[name].port}-${name}`);
}
