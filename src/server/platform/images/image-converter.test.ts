import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '#server/testing/photos';
import { childAnswer, convertImage, ImageConvertError } from './image-converter';

const options = { maxPixels: 80_000_000, displayMaxPx: 2000, thumbMaxPx: 240 };
const at = (name: string) => `${FIXTURES_DIR}/${name}`;

describe('convertImage', () => {
  it('makes an upright JPEG and a thumbnail from a JPEG and from a HEIC', async () => {
    const jpeg = await convertImage(at('rotated-exif6.jpg'), 'jpeg', options);
    expect([jpeg.width, jpeg.height]).toEqual([160, 240]);
    expect(await sharp(jpeg.display).metadata()).toMatchObject({ format: 'jpeg', width: 160, height: 240 });
    const heic = await convertImage(at('ballot.heic'), 'heic', { ...options, thumbMaxPx: 100 });
    expect([heic.width, heic.height]).toEqual([320, 240]);
    expect(await sharp(heic.thumb).metadata()).toMatchObject({ format: 'jpeg', width: 100, height: 75 });
  });

  it('keeps the colours of a HEIC: red, green and blue in their places, rows where they belong', async () => {
    const heic = await convertImage(at('ballot.heic'), 'heic', options);
    const { data, info } = await sharp(heic.display).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    const near = (actual: number[], expected: number[]) =>
      expect(
        actual.every((v, i) => Math.abs(v - (expected[i] ?? 0)) <= 32),
        `${actual} ≈ ${expected}`,
      ).toBe(true);
    // The fixture: a #f5f5f0 sheet with a #7c3aed frame 8 px in (tests/fixtures/make-fixtures.ts).
    near(pixel(2, 2), [0xf5, 0xf5, 0xf0]);
    near(pixel(8, 120), [0x7c, 0x3a, 0xed]);
    near(pixel(160, 8), [0x7c, 0x3a, 0xed]);
    near(pixel(312, 232), [0x7c, 0x3a, 0xed]);
  });

  it('refuses a JPEG whose data does not cover its declared size, and one cut off in transit', async () => {
    // 265 bytes claiming 8900x8900 with 16x16 of data: it would be stored as a grey picture.
    await expect(convertImage(at('short-data.jpg'), 'jpeg', options)).rejects.toThrow(/premature end/i);
    await expect(convertImage(at('truncated.jpg'), 'jpeg', options)).rejects.toBeInstanceOf(ImageConvertError);
  });

  it('still takes a whole JPEG with a harmless warning (stray bytes between markers, as some cameras write)', async () => {
    const ballot = fs.readFileSync(at('ballot.jpg'));
    let sos = 2;
    while (ballot[sos + 1] !== 0xda) sos += 2 + ballot.readUInt16BE(sos + 2);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'comando-jpeg-')), 'extra.jpg');
    fs.writeFileSync(file, Buffer.concat([ballot.subarray(0, sos), Buffer.from([1, 2, 3]), ballot.subarray(sos)]));
    await expect(sharp(file, { failOn: 'warning' }).toBuffer()).rejects.toThrow(/extraneous bytes/);
    const jpeg = await convertImage(file, 'jpeg', options);
    expect([jpeg.width, jpeg.height]).toEqual([480, 360]);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('refuses pictures larger than the limit before decoding them', async () => {
    await expect(convertImage(at('ballot.jpg'), 'jpeg', { ...options, maxPixels: 1000 })).rejects.toBeInstanceOf(
      ImageConvertError,
    );
    await expect(convertImage(at('ballot.heic'), 'heic', { ...options, maxPixels: 1000 })).rejects.toThrow(/too large/);
  });

  it('stops a conversion that takes too long', async () => {
    await expect(convertImage(at('ballot.heic'), 'heic', { ...options, timeoutMs: 1 })).rejects.toThrow(
      'la conversión tardó demasiado',
    );
  });

  it('takes the answer of a process whose exit Node told before its message', async () => {
    // The order a loaded server sometimes sees (the conversion sends its JPEGs and exits at once): here made
    // certain. The shell exits first; a subshell holding the same channel writes the answer only once the
    // shell is gone and reaped, that is once its exit has been told.
    const child = spawn(
      'sh',
      [
        '-c',
        `(while kill -0 $$ 2>/dev/null; do sleep 0.01; done; printf '%s\\n' '{"ok":true,"width":4}' >&3) & exit 0`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' },
    );
    const order: string[] = [];
    child.once('exit', () => order.push('exit'));
    child.once('message', () => order.push('message'));
    await expect(childAnswer(child, 60_000)).resolves.toEqual({ ok: true, width: 4 });
    expect(order).toEqual(['exit', 'message']);
  });

  it('says the conversion ended without answering when its process is gone and said nothing', async () => {
    const child = spawn('sh', ['-c', 'echo "sin memoria" >&2; exit 3'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    await expect(childAnswer(child, 60_000)).rejects.toThrow('el conversor terminó (3) sin memoria');
  });
});
