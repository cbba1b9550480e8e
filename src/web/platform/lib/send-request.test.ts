import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '#web/testing/msw-server';
import { API_TIMEOUT_MS, ApiError, apiFetch } from './api-client';
import { sendRequest } from './send-request';
import type { Timers } from './timers';

/** Timers the test fires by hand: no real time passes. */
function manualTimers() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  let next = 1;
  const timers: Timers = {
    now: () => 0,
    setTimeout: (callback, ms) => {
      pending.set(next, { callback, ms });
      return next++;
    },
    clearTimeout: (handle) => void pending.delete(handle as number),
  };
  return {
    timers,
    armed: () => [...pending.values()].map((t) => t.ms),
    fire() {
      const [first] = pending.entries();
      if (!first) throw new Error('no timer armed');
      pending.delete(first[0]);
      first[1].callback();
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('sendRequest', () => {
  it('resolves with any HTTP answer and its JSON', async () => {
    server.use(
      http.post('*/api/x', async ({ request }) =>
        HttpResponse.json({ got: await request.json(), key: request.headers.get('idempotency-key') }, { status: 409 }),
      ),
    );
    const answer = await sendRequest({
      method: 'POST',
      url: '/api/x',
      headers: { 'Idempotency-Key': 'k-1' },
      body: JSON.stringify({ a: 1 }),
      idleTimeoutMs: 30_000,
    });
    expect(answer).toEqual({ status: 409, body: { got: { a: 1 }, key: 'k-1' } });
  });

  it('gives up a request that stays silent for the idle timeout, as no answer', async () => {
    server.use(http.post('*/api/lento', () => new Promise<Response>(() => {})));
    const clock = manualTimers();
    const sent = sendRequest({
      method: 'POST',
      url: '/api/lento',
      body: '{}',
      idleTimeoutMs: 45_000,
      timers: clock.timers,
    });
    await vi.waitFor(() => expect(clock.armed()).toContain(45_000));
    clock.fire();
    await expect(sent).rejects.toEqual(
      new ApiError(0, 'El servidor no respondió a tiempo. Revisa tu conexión e intenta de nuevo.'),
    );
  });

  it('stops when its signal is aborted', async () => {
    server.use(http.post('*/api/lento', () => new Promise<Response>(() => {})));
    const controller = new AbortController();
    const sent = sendRequest({
      method: 'POST',
      url: '/api/lento',
      body: '{}',
      idleTimeoutMs: 45_000,
      signal: controller.signal,
    });
    controller.abort();
    await expect(sent).rejects.toMatchObject({ status: 0 });
  });
});

describe('apiFetch', () => {
  it('gives up after API_TIMEOUT_MS with a Spanish message', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.use(http.get('*/api/lento', () => new Promise<Response>(() => {})));
    const asked = apiFetch('/api/lento');
    const outcome = expect(asked).rejects.toEqual(
      new ApiError(0, 'El servidor no respondió a tiempo. Revisa tu conexión e intenta de nuevo.'),
    );
    await vi.advanceTimersByTimeAsync(API_TIMEOUT_MS);
    await outcome;
  });
});
