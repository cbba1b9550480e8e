import { describe, expect, it } from 'vitest';
import { fixture } from '#server/testing/photos';
import { sniffImageType } from './image-type';

const ftyp = (major: string, ...compatible: string[]) => {
  const size = 16 + compatible.length * 4;
  const box = Buffer.alloc(size);
  box.writeUInt32BE(size, 0);
  box.write('ftyp', 4, 'latin1');
  box.write(major, 8, 'latin1');
  for (const [i, brand] of compatible.entries()) box.write(brand, 16 + i * 4, 'latin1');
  return Buffer.concat([box, Buffer.alloc(32)]);
};

describe('sniffImageType', () => {
  it('recognises JPEG and HEIC by their first bytes', () => {
    expect(sniffImageType(fixture('ballot.jpg'))).toBe('jpeg');
    expect(sniffImageType(fixture('rotated-exif6.jpg'))).toBe('jpeg');
    expect(sniffImageType(fixture('ballot.heic'))).toBe('heic');
    for (const brand of ['heic', 'heix', 'hevc', 'hevx']) expect(sniffImageType(ftyp(brand))).toBe('heic');
    expect(sniffImageType(ftyp('mif1', 'miaf', 'heic'))).toBe('heic');
    expect(sniffImageType(ftyp('msf1', 'hevc'))).toBe('heic');
  });

  it('refuses everything else, whatever its name', () => {
    expect(sniffImageType(fixture('not-an-image.jpg'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('\x89PNG\r\n\x1a\n00000000', 'latin1'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('GIF89a0000000000'))).toBeUndefined();
    expect(sniffImageType(ftyp('avif'))).toBeUndefined();
    expect(sniffImageType(ftyp('mif1', 'avif', 'miaf'))).toBeUndefined();
    expect(sniffImageType(ftyp('isom', 'mp41'))).toBeUndefined();
    expect(sniffImageType(Buffer.from([0xff, 0xd8]))).toBeUndefined();
    expect(sniffImageType(Buffer.alloc(0))).toBeUndefined();
  });
});
