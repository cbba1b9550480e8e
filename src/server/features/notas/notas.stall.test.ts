import { afterEach, describe, expect, it } from 'vitest';
import type { BuildOptions } from '#server/app';
import { createUser, loginAs } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** About 198,000 characters of unclosed nested <b>, inside the 200,000-character limit of a nota. */
const NESTING_BOMB = `<p>Hola</p>${'<b>'.repeat(66_000)}fin`;

async function setup(options: Omit<BuildOptions, 'db' | 'logger'> = {}): Promise<{ t: TestApp; cookie: string }> {
  t = await createTestApp({}, options);
  await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
  return { t, cookie: await loginAs(t, 'jefa@example.org') };
}

/**
 * Asks /api/health every 20 ms while `work` runs and returns when each answer arrived, with the
 * work's own start and end. Answers that arrive at all while the work is in progress are the point:
 * a synchronous sanitiser holds the only thread and none arrive until it is done.
 */
async function healthDuring<T>(t: TestApp, work: () => Promise<T>) {
  const answers: number[] = [];
  let polling = true;
  const poll = async () => {
    while (polling) {
      const res = await t.app.inject({ url: '/api/health' });
      expect(res.statusCode).toBe(200);
      answers.push(performance.now());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const poller = poll();
  // Let the poller start answering before the work begins.
  while (answers.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
  const start = performance.now();
  const result = await work();
  const end = performance.now();
  polling = false;
  await poller;
  const during = answers.filter((at) => at > start && at < end);
  // The longest wait for an answer while the work ran, counting from its start and up to its end.
  const marks = [start, ...during, end];
  const longestGap = Math.max(...marks.slice(1).map((at, i) => at - (marks[i] ?? at)));
  return { result, during: during.length, longestGap, took: end - start };
}

describe('a hostile nota cannot stall the server', () => {
  it('refuses the nesting bomb before parsing it, with a Spanish message, and stores nothing', async () => {
    const { t, cookie } = await setup();
    const { result } = await healthDuring(t, () =>
      t.request({
        method: 'POST',
        url: '/api/admin/notas',
        headers: { cookie },
        payload: { title: 'Bomba', contentHtml: NESTING_BOMB },
      }),
    );
    expect(result.statusCode).toBe(400);
    expect(result.json().message).toBe(
      'La nota tiene demasiadas etiquetas anidadas (más de 200 niveles). Simplifica su formato e intenta de nuevo.',
    );
    expect(await t.db.kysely.selectFrom('posts').selectAll().execute()).toEqual([]);
  });

  it('sanitises off the main thread within a time budget: /api/health keeps answering while the bomb is saved, listed and read', async () => {
    // Bounds lifted so the bomb reaches the sanitiser itself, as anything within the bounds would. It
    // needs about a second there, and over 10 s on a busy machine: the 150 ms budget stops it.
    const { t, cookie } = await setup({
      notaHtml: { limits: { maxDepth: 1_000_000, maxElements: 1_000_000 }, budgetMs: 150 },
    });
    const saved = await healthDuring(t, () =>
      t.request({
        method: 'POST',
        url: '/api/admin/notas',
        headers: { cookie },
        payload: { title: 'Bomba', contentHtml: NESTING_BOMB, publish: true },
      }),
    );
    expect(saved.result.statusCode).toBe(400);
    expect(saved.result.json().message).toBe(
      'La nota es demasiado compleja para procesarla. Simplifica su formato e intenta de nuevo.',
    );
    // A health answer takes a few milliseconds; 750 ms is a generous margin for a busy machine, and far
    // below the seconds the bomb held the only thread for when it was sanitised there.
    expect(saved.during).toBeGreaterThanOrEqual(1);
    expect(saved.longestGap).toBeLessThan(750);

    // The same bomb stored by an older version, published: listed for the editors and read by the public.
    const at = new Date().toISOString();
    await t.db.kysely
      .insertInto('posts')
      .values({ title: 'Bomba', content_html: NESTING_BOMB, published_at: at, created_at: at, updated_at: at })
      .execute();
    const listed = await healthDuring(t, () => t.request({ url: '/api/admin/notas', headers: { cookie } }));
    expect(listed.result.statusCode).toBe(200);
    expect(listed.result.json().items[0].excerpt).toBe('Hola fin');
    expect(listed.longestGap).toBeLessThan(750);
    // Kept: the next list does not compute it again.
    expect((await t.db.kysely.selectFrom('posts').select('excerpt').executeTakeFirstOrThrow()).excerpt).toBe(
      'Hola fin',
    );

    const read = await healthDuring(t, () => t.app.inject({ url: '/api/notas' }));
    expect(read.result.statusCode).toBe(200);
    // Past the sanitiser's budget, a post is shown as its text alone: nothing of its markup survives.
    expect(read.result.json().items[0].contentHtml).toBe('<p>Hola</p><p>fin</p>');
    expect(read.longestGap).toBeLessThan(750);

    // The sanitiser is ready again for the next nota.
    const next = await t.request({
      method: 'POST',
      url: '/api/admin/notas',
      headers: { cookie },
      payload: { title: 'Normal', contentHtml: '<p>Texto <b>normal</b>.</p>' },
    });
    expect(next.statusCode).toBe(201);
    expect(next.json().nota.contentHtml).toBe('<p>Texto <b>normal</b>.</p>');
  });
});
