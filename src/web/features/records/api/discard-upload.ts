import { IDEMPOTENCY_KEY_HEADER } from '#shared/platform/idempotency';
import { apiFetch } from '#web/platform/lib/api-client';

/**
 * Removes an unfinished photo upload from the server ('Quitar'); nothing is waited for or reported. Given
 * up after the API's timeout like any request: what a lost DELETE leaves, the server's sweep removes.
 */
export async function discardUpload(uploadUrl: string, key: string): Promise<void> {
  await apiFetch(uploadUrl, {
    method: 'DELETE',
    headers: { 'Tus-Resumable': '1.0.0', [IDEMPOTENCY_KEY_HEADER]: key },
  }).catch(() => undefined);
}
