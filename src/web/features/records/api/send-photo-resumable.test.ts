import type { HttpRequest, HttpResponse, HttpStack } from 'tus-js-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { realTimers } from '#web/platform/lib/timers';
import { idleTimeoutStack } from './send-photo-resumable';

/** An HTTP stack whose one request the test drives: progress, an answer, or nothing at all. */
function heldStack() {
  const state = { progress: (_: number) => {}, answer: (_: HttpResponse) => {}, aborted: false };
  const stack: HttpStack = {
    getName: () => 'held',
    createRequest: (method, url): HttpRequest => ({
      getMethod: () => method,
      getURL: () => url,
      setHeader: () => {},
      getHeader: () => undefined,
      setProgressHandler: (handler) => {
        state.progress = handler;
      },
      send: () =>
        new Promise<HttpResponse>((resolve) => {
          state.answer = resolve;
        }),
      abort: async () => {
        state.aborted = true;
      },
      getUnderlyingObject: () => null,
    }),
  };
  return { stack, state };
}

const response = (status: number): HttpResponse => ({
  getStatus: () => status,
  getHeader: () => undefined,
  getBody: () => '',
  getUnderlyingObject: () => null,
});

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('idleTimeoutStack', () => {
  it('gives up a request that moves nothing for the idle time, and aborts it', async () => {
    const { stack, state } = heldStack();
    const sent = idleTimeoutStack(stack, 45_000, realTimers).createRequest('PATCH', '/u/1').send(null);
    const outcome = sent.then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await vi.advanceTimersByTimeAsync(44_999);
    expect(state.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toMatch(/no respondió a tiempo/);
    expect(state.aborted).toBe(true);
  });

  it('never cuts a slow upload that keeps moving, and passes its progress on', async () => {
    const { stack, state } = heldStack();
    const request = idleTimeoutStack(stack, 45_000, realTimers).createRequest('PATCH', '/u/1');
    const progress: number[] = [];
    request.setProgressHandler((bytes) => progress.push(bytes));
    const sent = request.send(null);
    for (let i = 1; i <= 10; i++) {
      await vi.advanceTimersByTimeAsync(40_000);
      state.progress(i * 1000);
    }
    state.answer(response(204));
    expect((await sent).getStatus()).toBe(204);
    expect(progress).toHaveLength(10);
    expect(state.aborted).toBe(false);
  });
});
