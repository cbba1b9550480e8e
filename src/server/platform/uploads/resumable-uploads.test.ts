import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { createResumableUploads } from './resumable-uploads';

let t: TestApp | undefined;
afterEach(async () => t?.close());

it('makes its folder at once, and a data folder removed right after raises no uncaught error', async () => {
  t = await createTestApp();
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-tus-'));
  const directory = path.join(parent, 'uploads', 'tus');
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  try {
    createResumableUploads(t.db.kysely, { directory, hours: 2, now: () => new Date(), dialect: t.db.dialect });
    expect(fs.statSync(directory).isDirectory()).toBe(true);
    // Removed before any callback of the store's constructor could run.
    fs.rmSync(parent, { recursive: true, force: true });
    // Every callback the file system had queued has run by the time this one does.
    await new Promise((resolve) => fs.mkdir(path.join(os.tmpdir()), { recursive: true }, resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(uncaught).toEqual([]);
    expect(fs.existsSync(parent)).toBe(false);
  } finally {
    process.off('uncaughtException', onUncaught);
  }
});
