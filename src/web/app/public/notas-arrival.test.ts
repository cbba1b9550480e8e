import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NotasPage, NotasState } from '#shared/features/notas/notas';
import { server } from '#web/testing/msw-server';
import { showNotasWhenTheyArrive } from './notas-arrival';

const page = (state: NotasState): NotasPage => ({
  items:
    state === 'ready' ? [{ id: 1, title: 'Nota', contentHtml: '<p>x</p>', publishedAt: '2026-11-22T12:00:00Z' }] : [],
  page: 1,
  pageSize: 5,
  total: state === 'ready' ? 1 : 0,
  totalPages: state === 'ready' ? 1 : 0,
  state,
});

/** The server's answers to /api/notas, one per ask (the last one repeats), and how often it was asked. */
function answers(...states: NotasState[]) {
  const asked = { count: 0 };
  server.use(
    http.get('*/api/notas', () => {
      const state = states[Math.min(asked.count, states.length - 1)] as NotasState;
      asked.count++;
      return HttpResponse.json(page(state));
    }),
  );
  return asked;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('notas still loading when a public page was rendered', () => {
  it('are asked for every 5 s and the page loads again once they have come', async () => {
    const asked = answers('loading', 'ready');
    const reload = vi.fn();
    showNotasWhenTheyArrive(page('loading'), new AbortController().signal, reload);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(asked.count).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(asked.count).toBe(1));
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5_000);
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(asked.count).toBe(2);
  });

  it('are asked for every 30 s while the source does not answer', async () => {
    const asked = answers('unavailable', 'stale');
    const reload = vi.fn();
    showNotasWhenTheyArrive(page('unavailable'), new AbortController().signal, reload);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(asked.count).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(asked.count).toBe(1));
    await vi.advanceTimersByTimeAsync(30_000);
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });

  it('asks nothing when the page has its notas, nor after the app took the page over', async () => {
    const asked = answers('ready');
    const reload = vi.fn();
    showNotasWhenTheyArrive(page('ready'), new AbortController().signal, reload);
    const handOver = new AbortController();
    showNotasWhenTheyArrive(page('loading'), handOver.signal, reload);
    handOver.abort();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(asked.count).toBe(0);
    expect(reload).not.toHaveBeenCalled();
  });
});
