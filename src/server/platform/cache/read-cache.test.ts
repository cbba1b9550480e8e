import { describe, expect, it, vi } from 'vitest';
import { createReadCache } from './read-cache';

describe('createReadCache', () => {
  it('serves a fresh value without loading again, reloads when stale or cleared', async () => {
    vi.useFakeTimers();
    try {
      const cache = createReadCache<object, number>(1_000);
      const owner = {};
      let n = 0;
      const load = async () => ++n;
      expect(await cache.get(owner, 'k', load)).toBe(1);
      expect(await cache.get(owner, 'k', load)).toBe(1);
      vi.advanceTimersByTime(1_001);
      expect(await cache.get(owner, 'k', load)).toBe(2);
      cache.clear(owner);
      expect(await cache.get(owner, 'k', load)).toBe(3);
      expect(await cache.get({}, 'k', load)).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });
});
