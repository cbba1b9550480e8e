import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRecordListCache } from './record-list-cache';

afterEach(() => vi.useRealTimers());

const loader = (body: string) => vi.fn(async () => body);

describe('the validators’ list cache', () => {
  it('serves a page for about its time to live, then reads it again', async () => {
    vi.useFakeTimers();
    const cache = createRecordListCache({ ttlMs: 1_000 });
    const load = loader('{"a":1}');
    expect(await cache.get('mara', 'p1', load)).toBe('{"a":1}');
    expect(await cache.get('mara', 'p1', load)).toBe('{"a":1}');
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get('cabimas', 'p1', load);
    expect(load).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1_000);
    await cache.get('mara', 'p1', load);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('reads a page once however many ask for it while it is being read', async () => {
    const cache = createRecordListCache();
    let release!: (body: string) => void;
    const load = vi.fn(() => new Promise<string>((resolve) => (release = resolve)));
    const asked = Array.from({ length: 20 }, () => cache.get('mara', 'p1', load));
    release('página');
    expect(await Promise.all(asked)).toEqual(Array(20).fill('página'));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('drops a department’s pages on any change under its validation path, and everything on admin changes', async () => {
    const cache = createRecordListCache();
    const mara = loader('mara');
    const cabimas = loader('cabimas');
    const fill = async () => {
      await cache.get('mara', 'p1', mara);
      await cache.get('cabimas', 'p1', cabimas);
    };
    await fill();
    cache.afterRequest('GET', '/api/validation/mara/records');
    cache.afterRequest('POST', '/api/auth/login');
    await fill();
    expect([mara.mock.calls.length, cabimas.mock.calls.length]).toEqual([1, 1]);
    cache.afterRequest('POST', '/api/validation/mara/records/7/vote');
    await fill();
    expect([mara.mock.calls.length, cabimas.mock.calls.length]).toEqual([2, 1]);
    cache.afterRequest('PUT', '/api/admin/records/9');
    await fill();
    expect([mara.mock.calls.length, cabimas.mock.calls.length]).toEqual([3, 2]);
  });

  it('never keeps, nor shares, what a read started before a change found', async () => {
    const cache = createRecordListCache();
    let release!: (body: string) => void;
    const slow = vi.fn(() => new Promise<string>((resolve) => (release = resolve)));
    const before = cache.get('mara', 'p1', slow);
    cache.afterRequest('POST', '/api/validation/mara/records/7/photos/an');
    // Asked after the change: a read of its own, not the one already under way.
    const after = cache.get('mara', 'p1', loader('nuevo'));
    release('viejo');
    expect(await before).toBe('viejo');
    expect(await after).toBe('nuevo');
    expect(await cache.get('mara', 'p1', loader('otra lectura'))).toBe('nuevo');
  });
});
