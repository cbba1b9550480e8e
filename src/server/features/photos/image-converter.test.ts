import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { convertImage, ImageConvertError } from './image-converter';
import { FIXTURES_DIR } from './photos.test-support';

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
});
