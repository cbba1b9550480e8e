import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { accessVersionOf, createAccessCache } from './cache';

let t: TestApp;
afterEach(async () => t?.close());

describe('access answers on PostgreSQL', () => {
  it('are never kept: instances share no change counter, so every request asks the database', async () => {
    t = await createTestApp();
    expect(accessVersionOf(t.db.kysely)).toBeUndefined();
    const cached = createAccessCache<number>(t.db.kysely);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cached('clave', load)).toBe(1);
    expect(await cached('clave', load)).toBe(2);
  });
});
