import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestDb, type TestDb } from '#server/testing/test-app';
import { createTimedAnswers, timedAnswers } from './cache';

afterEach(() => vi.useRealTimers());

const loader = (body: string) => vi.fn(async () => body);

describe('timed answers', () => {
  it('serve an answer for about its time to live, then read it again', async () => {
    vi.useFakeTimers();
    const answers = createTimedAnswers<string>({ ttlMs: 1_000, maxEntries: 10 });
    const load = loader('{"a":1}');
    expect(await answers.get('p1', load, 'mara')).toBe('{"a":1}');
    expect(await answers.get('p1', load, 'mara')).toBe('{"a":1}');
    expect(load).toHaveBeenCalledTimes(1);
    await answers.get('p1', load, 'cabimas');
    await answers.get('p2', load, 'mara');
    expect(load).toHaveBeenCalledTimes(3);
    vi.advanceTimersByTime(1_000);
    await answers.get('p1', load, 'mara');
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('read an answer once however many ask for it while it is being read', async () => {
    const answers = createTimedAnswers<string>({ ttlMs: 1_000, maxEntries: 10 });
    let release!: (body: string) => void;
    const load = vi.fn(() => new Promise<string>((resolve) => (release = resolve)));
    const asked = Array.from({ length: 20 }, () => answers.get('p1', load, 'mara'));
    release('página');
    expect(await Promise.all(asked)).toEqual(Array(20).fill('página'));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('forget one group, or every answer', async () => {
    const answers = createTimedAnswers<string>({ ttlMs: 60_000, maxEntries: 10 });
    const mara = loader('mara');
    const cabimas = loader('cabimas');
    const fill = async () => {
      await answers.get('p1', mara, 'mara');
      await answers.get('p1', cabimas, 'cabimas');
    };
    await fill();
    await fill();
    expect([mara.mock.calls.length, cabimas.mock.calls.length]).toEqual([1, 1]);
    answers.forget('mara');
    await fill();
    expect([mara.mock.calls.length, cabimas.mock.calls.length]).toEqual([2, 1]);
    answers.forget();
    await fill();
    expect([mara.mock.calls.length, cabimas.mock.calls.length]).toEqual([3, 2]);
  });

  it('never keep, nor share, what a read started before a forget found', async () => {
    const answers = createTimedAnswers<string>({ ttlMs: 60_000, maxEntries: 10 });
    for (const forget of [() => answers.forget('mara'), () => answers.forget()]) {
      let release!: (body: string) => void;
      const slow = vi.fn(() => new Promise<string>((resolve) => (release = resolve)));
      const before = answers.get('p1', slow, 'mara');
      forget();
      // Asked after the change: a read of its own, not the one already under way.
      const after = answers.get('p1', loader('nuevo'), 'mara');
      release('viejo');
      expect(await before).toBe('viejo');
      expect(await after).toBe('nuevo');
      expect(await answers.get('p1', loader('otra lectura'), 'mara')).toBe('nuevo');
      answers.forget();
    }
  });

  it('drop the answers past their time as new ones are kept, oldest first', async () => {
    vi.useFakeTimers();
    const answers = createTimedAnswers<string>({ ttlMs: 1_000, maxEntries: 1_000 });
    const load = loader('página');
    for (const key of ['p1', 'p2', 'p3']) await answers.get(key, load, 'mara');
    expect(answers.size).toBe(3);
    vi.advanceTimersByTime(500);
    await answers.get('p4', load, 'mara');
    expect(answers.size).toBe(4);
    vi.advanceTimersByTime(600);
    // p1 to p3 have lived their time; p4 (kept 500 ms ago) has not.
    await answers.get('p5', load, 'cabimas');
    expect(answers.size).toBe(2);
    await answers.get('p4', load, 'mara');
    expect(load).toHaveBeenCalledTimes(5);
  });

  it('stay within their size, forgetting everything when full', async () => {
    const answers = createTimedAnswers<string>({ ttlMs: 60_000, maxEntries: 2 });
    const load = loader('x');
    await answers.get('a', load);
    await answers.get('b', load);
    await answers.get('c', load);
    await answers.get('c', load);
    expect(load).toHaveBeenCalledTimes(3);
    await answers.get('a', load);
    expect(load).toHaveBeenCalledTimes(4);
  });
});

describe('timed answers of a database', () => {
  let test: TestDb | undefined;
  afterEach(async () => {
    await test?.destroy();
    test = undefined;
  });

  it('are the same for the reader and the writer of one database, and refused for a transaction', async () => {
    test = await createTestDb();
    const of = timedAnswers<string>({ ttlMs: 60_000, maxEntries: 10 });
    const db = test.db.kysely;
    expect(of(db)).toBe(of(db));
    const load = loader('uno');
    await of(db).get('k', load);
    await of(db).get('k', load);
    expect(load).toHaveBeenCalledTimes(1);
    of(db).forget();
    await of(db).get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
    await db.transaction().execute(async (trx) => {
      expect(() => of(trx)).toThrow(/not to a transaction/);
    });
  });
});
