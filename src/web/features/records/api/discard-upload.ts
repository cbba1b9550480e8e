import { IDEMPOTENCY_KEY_HEADER } from '#shared/platform/idempotency';

/** Removes an unfinished photo upload from the server ('Quitar'); nothing is waited for or reported. */
export async function discardUpload(uploadUrl: string, key: string): Promise<void> {
  await fetch(uploadUrl, {
    method: 'DELETE',
    headers: { 'Tus-Resumable': '1.0.0', [IDEMPOTENCY_KEY_HEADER]: key },
    credentials: 'same-origin',
  }).catch(() => undefined);
}
