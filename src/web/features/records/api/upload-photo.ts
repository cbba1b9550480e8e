import type { PhotoKind } from '#shared/platform/constants';
import { IDEMPOTENCY_KEY_HEADER } from '#shared/platform/idempotency';
import { type SentRequest, sendRequest } from '#web/platform/lib/send-request';
import type { Timers } from '#web/platform/lib/timers';
import { UPLOAD_IDLE_TIMEOUT_MS } from '#web/platform/lib/upload-with-progress';

export interface SendPhotoInput {
  slug: string;
  recordId: number;
  kind: PhotoKind;
  file: Blob;
  fileName: string;
  /** The Idempotency-Key made when the photo was taken: every try of this photo sends the same one. */
  key: string;
  /** 0-100 while the bytes travel. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  timers?: Timers;
}

/** Sends one ballot photo (from the phone's outbox), reporting progress; no answer rejects. */
export function sendPhoto(input: SendPhotoInput): Promise<SentRequest> {
  const form = new FormData();
  form.append('file', input.file, input.fileName);
  return sendRequest({
    method: 'POST',
    url: `/api/validation/${encodeURIComponent(input.slug)}/records/${input.recordId}/photos/${input.kind}`,
    headers: { [IDEMPOTENCY_KEY_HEADER]: input.key },
    body: form,
    onProgress: input.onProgress,
    idleTimeoutMs: UPLOAD_IDLE_TIMEOUT_MS,
    signal: input.signal,
    timers: input.timers,
  });
}
