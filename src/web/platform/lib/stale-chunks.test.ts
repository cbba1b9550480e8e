import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '#web/testing/msw-server';
import { API_TIMEOUT_MS } from './api-client';
import { reloadOnStaleChunks, serverAnswersHealth } from './stale-chunks';

const preloadError = () => window.dispatchEvent(new Event('vite:preloadError', { cancelable: true }));

describe('code of the page that cannot be loaded', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('reloads into the new version when the server answers (it no longer has the old files)', async () => {
    server.use(http.get('*/api/health', () => HttpResponse.json({ ok: true })));
    const reload = vi.fn();
    stop = reloadOnStaleChunks(window, { reload });
    preloadError();
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });

  it('keeps the page when the server cannot be reached: no "no connection" page in its place', async () => {
    const answer = Promise.resolve(false);
    const reload = vi.fn();
    stop = reloadOnStaleChunks(window, { serverAnswers: () => answer, reload });
    preloadError();
    // The page's own handler of the answer was attached first, so it has run when this resumes.
    await answer;
    expect(reload).not.toHaveBeenCalled();
  });

  it('a server that is down or answers an error does not count as answering', async () => {
    server.use(http.get('*/api/health', () => HttpResponse.error()));
    expect(await serverAnswersHealth()).toBe(false);
    server.use(http.get('*/api/health', () => new HttpResponse(null, { status: 503 })));
    expect(await serverAnswersHealth()).toBe(false);
  });

  it('asks once for several failures at the same moment', async () => {
    let answer!: (value: boolean) => void;
    const serverAnswers = vi.fn(() => new Promise<boolean>((resolve) => (answer = resolve)));
    const reload = vi.fn();
    stop = reloadOnStaleChunks(window, { serverAnswers, reload });
    preloadError();
    preloadError();
    expect(serverAnswers).toHaveBeenCalledTimes(1);
    answer(true);
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });

  it('gives up on a health check the network holds after the API timeout, and asks again at the next failure', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let asked = 0;
      server.use(
        http.get('*/api/health', () => {
          asked += 1;
          return new Promise<Response>(() => {});
        }),
      );
      let outcome: boolean | undefined;
      void serverAnswersHealth().then((answers) => {
        outcome = answers;
      });
      await vi.advanceTimersByTimeAsync(API_TIMEOUT_MS - 1);
      expect(outcome).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome).toBe(false);

      const reload = vi.fn();
      stop = reloadOnStaleChunks(window, { reload });
      preloadError();
      await vi.waitFor(() => expect(asked).toBe(2));
      await vi.advanceTimersByTimeAsync(API_TIMEOUT_MS);
      // That check has ended without an answer (no reload): the next failure asks again.
      preloadError();
      await vi.waitFor(() => expect(asked).toBe(3));
      expect(reload).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
