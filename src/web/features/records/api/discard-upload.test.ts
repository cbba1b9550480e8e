import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_TIMEOUT_MS } from '#web/platform/lib/api-client';
import { server } from '#web/testing/msw-server';
import { discardUpload } from './discard-upload';

const URL_OF_UPLOAD = '/api/photo-uploads/0123456789abcdef0123456789abcdef';

describe('discardUpload', () => {
  afterEach(() => vi.useRealTimers());

  it('asks the server to delete the unfinished upload, with the tus header and the photo key', async () => {
    const seen: { method: string; tus: string | null; key: string | null }[] = [];
    server.use(
      http.delete(`*${URL_OF_UPLOAD}`, ({ request }) => {
        seen.push({
          method: request.method,
          tus: request.headers.get('tus-resumable'),
          key: request.headers.get('idempotency-key'),
        });
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await discardUpload(URL_OF_UPLOAD, 'b3c1f0de-8f7e-4c1a-9a51-2f0c4d9e7a10');
    expect(seen).toEqual([{ method: 'DELETE', tus: '1.0.0', key: 'b3c1f0de-8f7e-4c1a-9a51-2f0c4d9e7a10' }]);
  });

  it('gives up after the API timeout when the network holds the request, reporting nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let aborted = false;
    server.use(
      http.delete(`*${URL_OF_UPLOAD}`, ({ request }) => {
        request.signal.addEventListener('abort', () => {
          aborted = true;
        });
        return new Promise<Response>(() => {});
      }),
    );
    let done = false;
    void discardUpload(URL_OF_UPLOAD, 'b3c1f0de-8f7e-4c1a-9a51-2f0c4d9e7a10').then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(API_TIMEOUT_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect(aborted).toBe(true);
  });
});
