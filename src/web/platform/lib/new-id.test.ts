import { afterEach, describe, expect, it, vi } from 'vitest';
import { idempotencyHeadersSchema } from '#shared/platform/idempotency';
import { newItemKey, newUuid } from './new-id';

describe('ids made on the phone', () => {
  afterEach(() => vi.useRealTimers());

  it('gives each item a version 7 key the server takes as its Idempotency-Key', () => {
    const key = newItemKey();
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idempotencyHeadersSchema.parse({ 'idempotency-key': key })['idempotency-key']).toBe(key);
  });

  it('makes keys that sort in the order they were made, within a millisecond and across days', () => {
    vi.useFakeTimers({ now: new Date('2026-12-06T08:00:00.000Z'), toFake: ['Date'] });
    const made = Array.from({ length: 50 }, () => newItemKey());
    vi.setSystemTime(new Date('2026-12-07T08:00:00.000Z'));
    made.push(newItemKey());
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
  });

  it('keeps random version 4 ids for what says nothing of its time (the phone’s id)', () => {
    expect(newUuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newUuid()).not.toBe(newUuid());
  });
});
