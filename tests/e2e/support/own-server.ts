import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDepartmentsService } from '#server/features/departments/departments.service';
import { createAccountsService } from '#server/features/people/accounts.service';
import { type Db, migrateToLatest, openDatabase } from '#server/platform/db/database';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { testPasswordHash } from '#server/testing/auth-helpers';
import { freePort, type ServerProcess, startServerProcess } from '#server/testing/server-process';
import { setElectionPhase } from '#server/testing/test-app';
import { forgetSessions } from './sessions';

/** A server a spec starts for itself, on an embedded database of its own. */
export interface OwnServer {
  origin: string;
  dataDir: string;
  /** Stops the server and removes its data folder (and the sessions kept for it). */
  stop(): Promise<void>;
}

/**
 * Starts a server of the spec's own for specs whose figures must be exact or
 * that change the day itself: a fresh data folder with the reference data, an admin and a validator of
 * `validator.slug` (both with `password`), the day under way, and whatever `seed` adds, written before the
 * server starts.
 */
export async function startOwnServer(options: {
  /** Names the data folder and the server in the log ('de SMS', 'del cierre'...). */
  name: string;
  admin: string;
  validator: { email: string; slug: string };
  password: string;
  seed?: (db: Db, now: Date) => Promise<unknown>;
  env?: Record<string, string>;
}): Promise<OwnServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-propio-'));
  const db = await openDatabase({ dataDir, databaseUrl: undefined });
  const now = new Date();
  try {
    await migrateToLatest(db);
    await seedReferenceData(db, now, 'Comando Zulia');
    await setElectionPhase(db, 'en_curso', now);
    const actor = { email: 'e2e', ip: null };
    const accounts = createAccountsService(db.kysely, () => now, testPasswordHash);
    await accounts.createUser({ email: options.admin, password: options.password, role: 'admin' }, actor);
    await accounts.createUser({ email: options.validator.email, password: options.password, role: 'staff' }, actor);
    await createDepartmentsService(db.kysely, () => now).grantAccess(
      options.validator.email,
      options.validator.slug,
      actor,
    );
    await options.seed?.(db, now);
  } finally {
    await db.close();
  }
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let server: ServerProcess;
  try {
    server = await startServerProcess({ port, dataDir, name: options.name, env: { NODE_ENV: 'test', ...options.env } });
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    origin,
    dataDir,
    async stop() {
      forgetSessions(origin);
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
