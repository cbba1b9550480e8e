import { afterEach, describe, expect, it } from 'vitest';
import type { BuildOptions } from '#server/app';
import type { Config } from '#server/platform/config/config';
import { createUser, loginAs } from '#server/testing/auth-helpers';
import { manualNotaTimers, whenNotasRead, wordpressNotas } from '#server/testing/notas';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { startWordpressContractServer, type WordpressContractServer } from '#tests/support/wordpress-contract-server';

let t: TestApp | undefined;
let wp: WordpressContractServer | undefined;
afterEach(async () => {
  await t?.close();
  await wp?.close();
  t = undefined;
  wp = undefined;
});

/** About 198,000 characters of unclosed nested <b>, inside the 200,000-character limit of a nota. */
const NESTING_BOMB = `<p>Hola</p>${'<b>'.repeat(66_000)}fin`;

/** Bounds lifted, so that the bomb reaches the sanitiser's thread, as anything within the bounds would. */
const LIFTED = { maxDepth: 10_000_000, maxElements: 10_000_000 };
const BUDGET_MS = 3_000;
/**
 * The tests that put the bomb on the thread: it takes a core until its budget is run out, and threads
 * start and end. Nothing in them waits on the clock, but on the shared 2-core machine they took 1–3 s
 * alone and up to 44 s while benchmarks ran beside them: two minutes leave room.
 */
const ON_THREAD = { timeout: 120_000 };

async function setup(
  overrides: Partial<Config> = {},
  options: Omit<BuildOptions, 'db' | 'logger'> = {},
): Promise<{ t: TestApp; cookie: string }> {
  t = await createTestApp(overrides, options);
  await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
  return { t, cookie: await loginAs(t, 'jefa@example.org') };
}

/**
 * Runs `work` with the bomb on the sanitiser's thread and answers /api/health three times meanwhile (a
 * sanitiser on the main thread would hold every request until it was done), then runs the post's time
 * budget out (the test's timers: nothing here waits on the clock) and gives what `work` answered.
 *
 * The one real-time condition: the three health answers (milliseconds) come before the thread is done
 * with the bomb, which takes seconds (20,000 levels took 2 s here; the time grows with the square of the
 * depth, and this is 66,000). Were the thread faster, `runOut` would throw and the test fail, not pass.
 */
async function healthWhileSanitising<T>(
  clock: ReturnType<typeof manualNotaTimers>,
  app: TestApp,
  work: () => Promise<T>,
): Promise<T> {
  const working = work();
  const budget = await clock.whenSet(BUDGET_MS);
  for (let i = 0; i < 3; i++) expect((await app.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  budget.runOut();
  return working;
}

describe('a hostile nota cannot stall the server', () => {
  it('refuses the nesting bomb before parsing it, with a Spanish message, and stores nothing', async () => {
    const { t, cookie } = await setup();
    const res = await t.request({
      method: 'POST',
      url: '/api/admin/notas',
      headers: { cookie },
      payload: { title: 'Bomba', contentHtml: NESTING_BOMB },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'La nota tiene demasiadas etiquetas anidadas (más de 200 niveles). Simplifica su formato e intenta de nuevo.',
    );
    expect(await t.db.kysely.selectFrom('posts').selectAll().execute()).toEqual([]);
  });

  it('refuses a nota with too many elements, saying how many are allowed', async () => {
    const { t, cookie } = await setup();
    const res = await t.request({
      method: 'POST',
      url: '/api/admin/notas',
      headers: { cookie },
      payload: { title: 'Larga', contentHtml: '<p>x'.repeat(20_001) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'La nota tiene demasiados elementos (más de 20.000). Divídela o simplifica su formato e intenta de nuevo.',
    );
  });

  it(
    'sanitises off the main thread within a time budget: the server answers while the bomb is saved, listed and read',
    ON_THREAD,
    async () => {
      const clock = manualNotaTimers();
      const { t, cookie } = await setup(
        {},
        { notaHtml: { limits: LIFTED, budgetMs: BUDGET_MS, timers: clock.timers } },
      );

      const saved = await healthWhileSanitising(clock, t, () =>
        t.request({
          method: 'POST',
          url: '/api/admin/notas',
          headers: { cookie },
          payload: { title: 'Bomba', contentHtml: NESTING_BOMB, publish: true },
        }),
      );
      expect(saved.statusCode).toBe(400);
      expect(saved.json().message).toBe(
        'La nota es demasiado compleja para procesarla. Simplifica su formato e intenta de nuevo.',
      );
      expect(await t.db.kysely.selectFrom('posts').selectAll().execute()).toEqual([]);

      // The same bomb stored by an older version, published: listed for the editors and read by the public.
      const at = new Date().toISOString();
      await t.db.kysely
        .insertInto('posts')
        .values({ title: 'Bomba', content_html: NESTING_BOMB, published_at: at, created_at: at, updated_at: at })
        .execute();
      const listed = await healthWhileSanitising(clock, t, () =>
        t.request({ url: '/api/admin/notas', headers: { cookie } }),
      );
      expect(listed.statusCode).toBe(200);
      expect(listed.json().items[0].excerpt).toBe('Hola fin');
      // Kept: the next list does not compute it again.
      expect((await t.db.kysely.selectFrom('posts').select('excerpt').executeTakeFirstOrThrow()).excerpt).toBe(
        'Hola fin',
      );

      const read = await healthWhileSanitising(clock, t, () => t.app.inject({ url: '/api/notas' }));
      expect(read.statusCode).toBe(200);
      // Past the sanitiser's budget, a post is shown as its text alone: nothing of its markup survives.
      expect(read.json().items[0].contentHtml).toBe('<p>Hola</p><p>fin</p>');

      // The sanitiser is ready again for the next nota.
      const next = await t.request({
        method: 'POST',
        url: '/api/admin/notas',
        headers: { cookie },
        payload: { title: 'Normal', contentHtml: '<p>Texto <b>normal</b>.</p>' },
      });
      expect(next.statusCode).toBe(201);
      expect(next.json().nota.contentHtml).toBe('<p>Texto <b>normal</b>.</p>');
    },
  );

  it(
    'reads WordPress posts through the same thread: a post past its budget is shown as text, next to the others',
    ON_THREAD,
    async () => {
      wp = await startWordpressContractServer([
        { id: 1, title: 'Bomba', html: NESTING_BOMB, dateGmt: '2026-11-20T10:00:00' },
        { id: 2, title: 'Normal', html: '<p onclick="x()">Texto <b>bien</b></p>', dateGmt: '2026-11-19T10:00:00' },
      ]);
      const clock = manualNotaTimers();
      // No one signs in: the copy is read (and the bomb handed to the thread) as soon as the app is ready.
      t = await createTestApp(
        { notas: wordpressNotas(wp.url) },
        { notaHtml: { limits: LIFTED, budgetMs: BUDGET_MS, timers: clock.timers } },
      );
      const app = t;
      // The copy is sanitised in the background; meanwhile the notas answer at once that they are loading.
      const read = await healthWhileSanitising(clock, app, async () => {
        const meanwhile = await app.app.inject({ url: '/api/notas' });
        expect(meanwhile.json().state).toBe('loading');
        return whenNotasRead(app);
      });
      expect(read.items.map((n: { contentHtml: string }) => n.contentHtml)).toEqual([
        '<p>Hola</p><p>fin</p>',
        '<p>Texto <b>bien</b></p>',
      ]);
    },
  );
});
