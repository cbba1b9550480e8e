import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { receiveUpload } from '#server/platform/images/receive-upload';
import { fixture } from '#server/testing/photos';

/*
 * The names the Airtable import decides on when a downloaded photo is refused (airtable.photos.ts):
 * too large, or not a photo. (The vote's names, read by the vote import too, are asserted in
 * features/sms/sms.refusals.test.ts: the same use case.)
 */

let tempDir: string;
afterEach(() => fs.rmSync(tempDir, { recursive: true, force: true }));

function send(data: Buffer, maxBytes: number) {
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-airtable-refusals-'));
  const source = new PassThrough();
  const pending = receiveUpload(source, { maxBytes, tempDir });
  source.end(data);
  return pending;
}

describe('the refusals the Airtable photo download reads', () => {
  it('names a photo over the limit and bytes that are not a photo', async () => {
    await expect(send(fixture('ballot.jpg'), 100)).rejects.toMatchObject({ name: 'too_large', statusCode: 413 });
    await expect(send(Buffer.from('no es una foto, es texto'.repeat(20)), 1024 * 1024)).rejects.toMatchObject({
      name: 'not_an_image',
      statusCode: 415,
    });
  });
});
