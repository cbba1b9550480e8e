import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRecordListCache } from './record-list-cache';

afterEach(() => vi.useRealTimers());

describe('the validators’ list cache', () => {
  it('serves a page for its time to live, then forgets it', () => {
    vi.useFakeTimers();
    const cache = createRecordListCache({ ttlMs: 1_000 });
    cache.set('mara', 'p1', '{"a":1}', cache.generation('mara'));
    expect(cache.get('mara', 'p1')).toBe('{"a":1}');
    expect(cache.get('cabimas', 'p1')).toBeUndefined();
    vi.advanceTimersByTime(1_000);
    expect(cache.get('mara', 'p1')).toBeUndefined();
  });

  it('drops a department’s pages on any change under its validation path, and everything on admin changes', () => {
    const cache = createRecordListCache();
    const fill = () => {
      for (const slug of ['mara', 'cabimas']) cache.set(slug, 'p1', slug, cache.generation(slug));
    };
    fill();
    cache.afterRequest('GET', '/api/validation/mara/records');
    cache.afterRequest('POST', '/api/auth/login');
    expect(cache.get('mara', 'p1')).toBe('mara');
    cache.afterRequest('POST', '/api/validation/mara/records/7/vote');
    expect(cache.get('mara', 'p1')).toBeUndefined();
    expect(cache.get('cabimas', 'p1')).toBe('cabimas');
    fill();
    cache.afterRequest('PATCH', '/api/admin/records/9');
    expect(cache.get('mara', 'p1')).toBeUndefined();
    expect(cache.get('cabimas', 'p1')).toBeUndefined();
  });

  it('never stores what a read started before a change found', () => {
    const cache = createRecordListCache();
    const before = cache.generation('mara');
    cache.afterRequest('POST', '/api/validation/mara/records/7/photos/an');
    cache.set('mara', 'p1', 'old', before);
    expect(cache.get('mara', 'p1')).toBeUndefined();
    const beforeAll = cache.generation('mara');
    cache.afterRequest('POST', '/api/admin/records/import');
    cache.set('mara', 'p1', 'old', beforeAll);
    expect(cache.get('mara', 'p1')).toBeUndefined();
  });
});
