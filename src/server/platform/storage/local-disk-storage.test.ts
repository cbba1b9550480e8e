import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openFilesLate } from '#server/testing/late-open';
import { createLocalDiskStorage } from './local-disk-storage';

let root: string;
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const allFiles = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? allFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    : [];

describe('local disk photo storage', () => {
  it('syncs the folder after renaming a new file into it, so the name survives a power cut', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-storage-'));
    const storage = createLocalDiskStorage(root);
    const synced: string[] = [];
    const open = fsp.open;
    const spy = vi.spyOn(fsp, 'open').mockImplementation(async (file, flags, mode) => {
      const handle = await open(file, flags, mode);
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        synced.push(String(file));
        return sync();
      };
      return handle;
    });
    try {
      const { key } = await storage.put(Buffer.from('foto'), { suffix: 'jpg', contentType: 'image/jpeg' });
      const file = path.join(root, key);
      // The data first (under its temporary name), then the folder that now holds the final name.
      expect(synced).toHaveLength(2);
      expect(synced[0]).toMatch(new RegExp(`^${file.replace(/\./g, '\\.')}\\.[0-9a-f]+\\.part$`));
      expect(synced[1]).toBe(path.dirname(file));
    } finally {
      spy.mockRestore();
    }
  });

  it('stores under keys it generates, and reads, checks and deletes them', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-storage-'));
    const storage = createLocalDiskStorage(root);
    const a = await storage.put(Readable.from([Buffer.from('hola '), Buffer.from('mundo')]), {
      suffix: 'jpg',
      contentType: 'image/jpeg',
    });
    const b = await storage.put(Buffer.from('otra'), { suffix: 'heic', contentType: 'image/heic' });
    expect(a.key).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{32}\.jpg$/);
    expect(b.key).not.toBe(a.key);
    expect(a.size).toBe(10);
    expect(await storage.exists(a.key)).toBe(true);
    const got = await storage.get(a.key);
    expect(got?.size).toBe(10);
    expect(await text(got!.stream)).toBe('hola mundo');
    await storage.delete(a.key);
    expect(await storage.exists(a.key)).toBe(false);
    expect(await storage.get(a.key)).toBeUndefined();
    await storage.delete(a.key);
  });

  it('never resolves a key that points elsewhere', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-storage-'));
    const storage = createLocalDiskStorage(path.join(root, 'photos'));
    fs.writeFileSync(path.join(root, 'secreto.txt'), 'no');
    for (const key of ['../secreto.txt', '/etc/passwd', 'ab/../../secreto.txt', '', 'demo:gobernador:1']) {
      expect(await storage.get(key)).toBeUndefined();
      expect(await storage.exists(key)).toBe(false);
      await storage.delete(key);
    }
    expect(fs.existsSync(path.join(root, 'secreto.txt'))).toBe(true);
    await expect(storage.put(Buffer.from('x'), { suffix: '../x', contentType: 'image/jpeg' })).rejects.toThrow();
  });

  it('leaves no file when the stream fails halfway', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-storage-'));
    const storage = createLocalDiskStorage(root);
    const source = new PassThrough();
    const pending = storage.put(source, { suffix: 'jpg', contentType: 'image/jpeg' });
    source.write(Buffer.alloc(1000));
    // Cut once the temporary file is open, however long that takes.
    await vi.waitFor(() => expect(allFiles(root).filter((f) => f.endsWith('.part'))).toHaveLength(1), {
      timeout: 10_000,
    });
    source.destroy(new Error('cortado'));
    await expect(pending).rejects.toThrow('cortado');
    expect(allFiles(root)).toEqual([]);
  });

  it('reports a stream that fails before its folder is made, the process going on, and leaves no .part however late its file opens', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-storage-'));
    const storage = createLocalDiskStorage(root);
    const source = new PassThrough();
    const late = openFilesLate();
    try {
      const pending = storage.put(source, { suffix: 'jpg', contentType: 'image/jpeg' });
      late.after(pending);
      // At once, while the folder is still being made: an upload cut as it starts.
      source.destroy(new Error('cortado al empezar'));
      await expect(pending).rejects.toThrow('cortado al empezar');
      await late.opened();
    } finally {
      late.restore();
    }
    expect(allFiles(root)).toEqual([]);
  });
});

describe('copying from another driver', () => {
  it('stores under a given key, replacing what was there, and refuses anything else', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-storage-'));
    const storage = createLocalDiskStorage(root);
    const key = `ab/${'c'.repeat(32)}.jpg`;
    expect(await storage.putAt(key, Buffer.from('uno'), { contentType: 'image/jpeg' })).toEqual({ size: 3 });
    await storage.putAt(key, Buffer.from('dos!'), { contentType: 'image/jpeg' });
    expect(await text((await storage.get(key))!.stream)).toBe('dos!');
    for (const bad of ['../../x.jpg', 'r/Bolívar/AN/María.jpg', `ab/../${'c'.repeat(32)}.jpg`, 'x/y.jpg']) {
      await expect(storage.putAt(bad, Buffer.from('x'), { contentType: 'image/jpeg' })).rejects.toThrow();
    }
    expect(allFiles(root).map((f) => path.relative(root, f))).toEqual([key]);
  });
});
