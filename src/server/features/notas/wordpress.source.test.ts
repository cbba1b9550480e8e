import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakePost,
  makePosts,
  startWordpressContractServer,
  type WordpressContractServer,
} from '../../../../tests/support/wordpress-contract-server';
import { createTestApp, type TestApp } from '#server/testing/test-app';

let wp: WordpressContractServer | undefined;
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  await wp?.close();
  t = undefined;
  wp = undefined;
});

async function appWith(posts: FakePost[]) {
  wp = await startWordpressContractServer(posts);
  t = await createTestApp({ notas: { source: 'wordpress', url: wp.url } });
  return { wp, t };
}

async function allTitles(app: TestApp['app']): Promise<string[]> {
  const titles: string[] = [];
  for (let page = 1; ; page++) {
    const body = (await app.inject({ url: `/api/notas?page=${page}&pageSize=100` })).json();
    titles.push(...body.items.map((n: { title: string }) => n.title));
    if (page >= body.totalPages) return titles;
  }
}

describe('notas from WordPress', () => {
  it('reads every page (100 a page, following X-WP-TotalPages): 250 posts, newest first', async () => {
    const { wp, t } = await appWith(makePosts(250));
    const titles = await allTitles(t.app);
    expect(titles).toHaveLength(250);
    expect(titles[0]).toBe('Entrada 250 “WordPress”');
    expect(titles.at(-1)).toBe('Entrada 1 “WordPress”');
    expect(wp.requests.filter((r) => r.startsWith('/wp-json/wp/v2/posts'))).toEqual([
      '/wp-json/wp/v2/posts?_embed=1&per_page=100&page=1',
      '/wp-json/wp/v2/posts?_embed=1&per_page=100&page=2',
      '/wp-json/wp/v2/posts?_embed=1&per_page=100&page=3',
    ]);
  });

  it('serves from its copy for a minute instead of asking WordPress on every visit', async () => {
    const { wp, t } = await appWith(makePosts(5));
    await t.app.inject({ url: '/api/notas' });
    await t.app.inject({ url: '/api/notas' });
    await t.app.inject({ url: '/api/notas?page=1&pageSize=2' });
    expect(wp.requests).toHaveLength(1);
  });

  it('maps the featured image from _embedded and sanitises hostile HTML', async () => {
    const posts: FakePost[] = [
      {
        id: 7,
        title: '<script>alert(1)</script>Hola &amp; chao',
        html: '<p onclick="alert(1)">texto</p><script>window.x=1</script><a href="javascript:alert(1)">a</a><img src="https://wp.example/x.jpg" onerror="alert(1)">',
        dateGmt: '2026-11-20T10:00:00',
        image: { url: 'https://wp.example/portada.jpg', alt: 'Portada' },
      },
      {
        id: 8,
        title: 'Sin imagen',
        html: '<p>ok</p>',
        dateGmt: '2026-11-19T10:00:00',
        image: { url: 'javascript:alert(1)', alt: '' },
      },
    ];
    const { t } = await appWith(posts);
    const [first, second] = (await t.app.inject({ url: '/api/notas' })).json().items;
    expect(first).toMatchObject({
      id: 7,
      title: 'Hola & chao',
      publishedAt: '2026-11-20T10:00:00.000Z',
      imageUrl: 'https://wp.example/portada.jpg',
      imageAlt: 'Portada',
    });
    expect(first.contentHtml).not.toMatch(/script|onclick|onerror|javascript:/i);
    expect(first.contentHtml).toContain('<img src="https://wp.example/x.jpg"');
    expect(second.imageUrl).toBeNull();
  });

  it('keeps serving the last good copy, with a notice, when WordPress goes down; recovers when it is back', async () => {
    const { wp, t } = await appWith(makePosts(3));
    expect((await t.app.inject({ url: '/api/notas' })).json().total).toBe(3);
    wp.mode = 'down';
    await t.app.inject({ url: '/api/notas' }); // copy is fresh: no request yet
    const stale = await refreshAndRead(t);
    expect(stale.statusCode).toBe(200);
    expect(stale.json().total).toBe(3);
    expect(stale.json().notice).toBe(
      'Mostrando la última copia guardada: la fuente de notas no responde en este momento.',
    );
    wp.mode = 'ok';
    const fresh = await refreshAndRead(t);
    expect(fresh.json().notice).toBeUndefined();
  });

  it.each(['down', 'malformed'] as const)(
    'answers an empty page with a notice when WordPress is %s from the start',
    async (mode) => {
      wp = await startWordpressContractServer(makePosts(3));
      wp.mode = mode;
      t = await createTestApp({ notas: { source: 'wordpress', url: wp.url } });
      const res = await t.app.inject({ url: '/api/notas' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        items: [],
        total: 0,
        notice: 'No pudimos cargar las notas en este momento. Intenta de nuevo en unos minutos.',
      });
    },
  );

  it('gives up on a slow WordPress instead of hanging the page', async () => {
    const { createWordpressSource } = await import('./wordpress.source');
    wp = await startWordpressContractServer(makePosts(3));
    wp.mode = 'slow';
    const warnings: string[] = [];
    const log = { warn: (_o: unknown, m: string) => warnings.push(m), info: () => {} } as never;
    const source = createWordpressSource({ url: wp.url, log, timeoutMs: 200 });
    const started = Date.now();
    const snap = await source.snapshot();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(snap).toMatchObject({ posts: [], available: false, stale: true });
    expect(warnings[0]).toMatch(/sin respuesta en 200 ms/);
  });
});

/** Makes the route's WordPress copy stale and waits for the background refresh, then reads again. */
async function refreshAndRead(t: TestApp) {
  const realNow = Date.now;
  Date.now = () => realNow() + 61_000;
  try {
    await t.app.inject({ url: '/api/notas' }); // serves the copy, starts a refresh
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    Date.now = realNow;
  }
  return t.app.inject({ url: '/api/notas' });
}
