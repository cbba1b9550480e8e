import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '#server/platform/http/errors';
import { openFilesLate } from '#server/testing/late-open';
import { fixture } from '#server/testing/photos';
import { receiveUpload } from './receive-upload';

let tempDir: string;
afterEach(() => fs.rmSync(tempDir, { recursive: true, force: true }));

function setup() {
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-receive-'));
  return { maxBytes: 1024 * 1024, tempDir };
}

describe('receiveUpload', () => {
  it('hashes, counts and types the upload while writing it to a temporary file', async () => {
    const options = setup();
    const data = fixture('ballot.jpg');
    const source = new PassThrough();
    source.end(data);
    const upload = await receiveUpload(source, options);
    expect(upload).toMatchObject({ size: data.length, type: 'jpeg' });
    expect(upload.sha256).toBe((await import('node:crypto')).createHash('sha256').update(data).digest('hex'));
    expect(fs.readFileSync(upload.file).equals(data)).toBe(true);
    await upload.discard();
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });

  it('gives up on a connection that breaks mid-file and removes the partial file', async () => {
    const options = setup();
    const source = new PassThrough();
    const pending = receiveUpload(source, options);
    source.write(fixture('ballot.jpg').subarray(0, 4000));
    await new Promise((r) => setTimeout(r, 20));
    source.destroy(new Error('socket hang up'));
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(400);
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });

  it('removes the temporary file of an upload cut before that file was open', async () => {
    const options = setup();
    const source = new PassThrough();
    const late = openFilesLate();
    try {
      const pending = receiveUpload(source, options);
      late.after(pending);
      // Cut a moment after it started: while its folder is made, before its file is open.
      await new Promise((resolve) => setImmediate(resolve));
      source.destroy(new Error('socket hang up'));
      expect(((await pending.catch((e: unknown) => e)) as HttpError).statusCode).toBe(400);
      await late.opened();
    } finally {
      late.restore();
    }
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });

  it('gives up on an upload that goes silent', async () => {
    const options = setup();
    const source = new PassThrough();
    const pending = receiveUpload(source, { ...options, idleMs: 50 });
    source.write(fixture('ballot.jpg').subarray(0, 100));
    const error = await pending.catch((e: unknown) => e);
    expect((error as HttpError).message).toBe('La carga de la foto se interrumpió.');
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });
});
