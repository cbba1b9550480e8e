import type { PhotoKind } from '#shared/platform/constants';
import { PHOTO_KIND_LABELS } from '#shared/platform/records';

const MAX_SEGMENT = 120;

/**
 * One folder or file name taken from data (a department title, a person's name): no path separators,
 * no control characters, no characters Windows or Dropbox refuse, no leading dots (so never `.` or `..`).
 */
export function safePathSegment(value: string, fallback = 'sin nombre'): string {
  const cleaned = value
    .normalize('NFC')
    .replace(/\p{Cc}/gu, '')
    .replace(/[/\\:*?"<>|]/g, ' ')
    .replace(/\.{2,}/g, '.')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  const cut = Array.from(cleaned).slice(0, MAX_SEGMENT).join('').trim();
  return cut || fallback;
}

/** The spec's readable path of a photo: /<department title>/<Gobernador|AN|CLEZ>/<record name>.<ext>. */
export function photoReadablePath(departmentTitle: string, kind: PhotoKind, recordName: string, ext: string): string {
  return `/${safePathSegment(departmentTitle)}/${PHOTO_KIND_LABELS[kind]}/${safePathSegment(recordName)}.${ext}`;
}

/** The same path as one file name, for a download ("Bolívar - Gobernador - María Pérez.jpg"). */
export function photoDownloadName(departmentTitle: string, kind: PhotoKind, recordName: string, ext: string): string {
  return `${safePathSegment(departmentTitle)} - ${PHOTO_KIND_LABELS[kind]} - ${safePathSegment(recordName)}.${ext}`;
}

/** A Content-Disposition header with an ASCII fallback name and the exact UTF-8 one (RFC 6266). */
export function contentDisposition(disposition: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
