import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDatabase } from '#server/platform/db/database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A SQLite file with every migration applied, copied by each test that needs a schema. */
    sqliteTemplate: string;
  }
}

let dir: string | undefined;

/** Migrates one SQLite database for the whole run; tests copy the file instead of migrating again. */
export async function setup(project: TestProject): Promise<void> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-template-'));
  const db = await openDatabase({ dataDir: dir, databaseUrl: undefined });
  try {
    await migrateToLatest(db);
  } finally {
    // Closing the last connection folds the write-ahead log into the file: the file alone is the copy.
    await db.close();
  }
  project.provide('sqliteTemplate', path.join(dir, 'comando.sqlite'));
}

export async function teardown(): Promise<void> {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
