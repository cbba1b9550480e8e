import sharp, { type Exif } from 'sharp';
import { describe, expect, it } from 'vitest';
import { captureTimeFromDate, exifSegment, readCaptureTime, withExif } from './capture-time';

/** A JPEG as a camera writes it (libvips/libexif, not our code), with its capture time in EXIF. */
async function cameraJpeg(exif?: Exif): Promise<Uint8Array> {
  const image = sharp({ create: { width: 40, height: 30, channels: 3, background: '#7c3aed' } }).jpeg();
  return new Uint8Array(await (exif ? image.withExif(exif) : image).toBuffer());
}

describe('capture time', () => {
  it('reads the capture time a camera wrote, and its offset', async () => {
    const jpeg = await cameraJpeg({
      IFD0: { Make: 'Cámara', DateTime: '2026:12:06 10:00:00' },
      IFD2: { DateTimeOriginal: '2026:12:06 09:41:07', OffsetTimeOriginal: '-04:00' },
    });
    expect(readCaptureTime(jpeg)).toEqual({ dateTimeOriginal: '2026:12:06 09:41:07', offsetTimeOriginal: '-04:00' });
  });

  it('falls back to the image’s date, and says nothing when there is no EXIF or no JPEG', async () => {
    expect(readCaptureTime(await cameraJpeg({ IFD0: { DateTime: '2026:12:06 10:00:00' } }))).toEqual({
      dateTimeOriginal: '2026:12:06 10:00:00',
    });
    expect(readCaptureTime(await cameraJpeg())).toBeUndefined();
    expect(readCaptureTime(new Uint8Array([0x00, 0x00, 0x00, 0x18, 0x66, 0x74, 0x79, 0x70]))).toBeUndefined();
  });

  it('writes only the capture time into a re-encoded JPEG, where libvips reads it back', async () => {
    const reencoded = await cameraJpeg();
    const out = withExif(
      reencoded,
      exifSegment({ dateTimeOriginal: '2026:12:06 09:41:07', offsetTimeOriginal: '-04:00' }),
    );
    expect(readCaptureTime(out)).toEqual({ dateTimeOriginal: '2026:12:06 09:41:07', offsetTimeOriginal: '-04:00' });
    const meta = await sharp(out).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBe(40);
    expect(meta.orientation).toBeUndefined();
    const exif = Buffer.from(meta.exif ?? []).toString('latin1');
    expect(exif).toContain('2026:12:06 09:41:07');
    // The image itself is intact: the same pixels decode.
    const [a, b] = await Promise.all([sharp(out).raw().toBuffer(), sharp(reencoded).raw().toBuffer()]);
    expect(a.equals(b)).toBe(true);
  });

  it('makes a capture time from a file date in the phone’s zone', () => {
    // 2026-12-06 13:41:07 UTC on a phone in Caracas (UTC-4, getTimezoneOffset() = 240).
    expect(captureTimeFromDate(Date.UTC(2026, 11, 6, 13, 41, 7), 240)).toEqual({
      dateTimeOriginal: '2026:12:06 09:41:07',
      offsetTimeOriginal: '-04:00',
    });
  });
});
