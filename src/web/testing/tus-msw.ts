import { HttpResponse, http } from 'msw';
import { PHOTO_UPLOADS_PATH } from '#shared/features/photos/photo-uploads';

/** What a photo upload said about itself when it was created (its tus Upload-Metadata and headers). */
export interface TusUploadInfo {
  id: string;
  slug: string;
  recordId: number;
  kind: string;
  filename: string;
  key: string | null;
  size: number;
  /** The SHA-256 the phone sent in the metadata, if any. */
  sha256?: string;
}

function parseMetadata(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (header ?? '').split(',')) {
    const [name, value] = pair.trim().split(' ');
    if (name) out[name] = value ? atob(value) : '';
  }
  return out;
}

/**
 * MSW handlers speaking enough of the tus protocol for the web tests: creation, HEAD and PATCH. When
 * a PATCH ends the photo, `finish` gives the server's answer (201 with the record, or a refusal); it
 * may wait to hold the upload "on the network". Answers the uploads seen, in order.
 */
export function tusPhotoHandlers(finish: (upload: TusUploadInfo) => Response | Promise<Response>) {
  const uploads: TusUploadInfo[] = [];
  let next = 0;
  const tusHeaders = { 'Tus-Resumable': '1.0.0' };
  const handlers = [
    http.post(`*${PHOTO_UPLOADS_PATH}`, ({ request }) => {
      const meta = parseMetadata(request.headers.get('upload-metadata'));
      next += 1;
      const id = next.toString(16).padStart(32, '0');
      uploads.push({
        id,
        slug: meta.slug ?? '',
        recordId: Number(meta.recordId),
        kind: meta.kind ?? '',
        filename: meta.filename ?? '',
        key: request.headers.get('idempotency-key'),
        size: Number(request.headers.get('upload-length')),
        ...(meta.sha256 ? { sha256: meta.sha256 } : {}),
      });
      return new HttpResponse(null, {
        status: 201,
        headers: { ...tusHeaders, Location: `${PHOTO_UPLOADS_PATH}/${id}` },
      });
    }),
    http.head(`*${PHOTO_UPLOADS_PATH}/:id`, ({ params }) => {
      const upload = uploads.find((u) => u.id === params.id);
      if (!upload) return new HttpResponse(null, { status: 404, headers: tusHeaders });
      return new HttpResponse(null, {
        status: 200,
        headers: { ...tusHeaders, 'Upload-Offset': '0', 'Upload-Length': String(upload.size) },
      });
    }),
    http.patch(`*${PHOTO_UPLOADS_PATH}/:id`, async ({ params }) => {
      const upload = uploads.find((u) => u.id === params.id);
      if (!upload) return new HttpResponse(null, { status: 404, headers: tusHeaders });
      const answer = await finish(upload);
      // The whole photo arrived (jsdom's XMLHttpRequest does not carry a Blob's bytes through MSW, so
      // the declared length stands for them; the end-to-end tests check real bytes).
      answer.headers.set('Upload-Offset', String(upload.size));
      answer.headers.set('Tus-Resumable', '1.0.0');
      return answer;
    }),
  ];
  return { handlers, uploads };
}
