import { randomBytes } from 'node:crypto';
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

it('counts and registers in one step in the database: 400 at once from sixteen servers leave exactly the limit', async () => {
  t = await createTestApp();
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-tus-'));
  try {
    // Sixteen instances, as sixteen server processes on one database would have: none waits for another's turn.
    const servers = Array.from({ length: 16 }, () =>
      createResumableUploads((t as TestApp).db.kysely, {
        directory: path.join(parent, 'tus'),
        hours: 24,
        now: () => new Date('2026-12-06T12:00:00Z'),
        dialect: (t as TestApp).db.dialect,
      }),
    );
    const upload = () => ({
      id: randomBytes(16).toString('hex'),
      owner_email: 'validadora.a@example.org',
      department_slug: 'cabimas',
      record_id: 1,
      kind: 'gobernador',
      item_key: randomBytes(16).toString('hex'),
      size_bytes: 1000,
    });
    const results = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        (servers[i % servers.length] as (typeof servers)[number]).register(upload(), { count: 100, bytes: 10_000_000 }),
      ),
    );
    expect(results.filter((r) => r.row)).toHaveLength(100);
    expect(results.filter((r) => r.refused === 'count')).toHaveLength(300);
    const rows = await t.db.kysely.selectFrom('resumable_uploads').select('id').execute();
    expect(rows).toHaveLength(100);
  } finally {
    fs.rmSync(parent, { recursive: true, force: true });
  }
});
