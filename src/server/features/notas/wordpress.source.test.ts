import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WordpressNotasConfig } from '#server/platform/config/config';
import { addAgendaEvent } from '#server/testing/agenda';
import { whenNotasRead, wordpressNotas } from '#server/testing/notas';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { builtWebRoot } from '#server/testing/web-root';
import {
  type FakePost,
  makePosts,
  startWordpressContractServer,
  type WordpressContractServer,
} from '#tests/support/wordpress-contract-server';
import { createWordpressSource } from './wordpress.source';

// The rendered pages: the project's index.html as the template, the rendering module from its source
// (compiled by Vitest on the fly; in production, its build in dist-ssr/).
const REPO = path.resolve(import.meta.dirname, '../../../..');
const RENDERER = path.join(REPO, 'src/web/app/entry-server.tsx');

let wp: WordpressContractServer | undefined;
let t: TestApp | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await t?.close();
  await wp?.close();
  t = undefined;
  wp = undefined;
});

async function appWith(posts: FakePost[], overrides: Partial<WordpressNotasConfig> = {}) {
  wp = await startWordpressContractServer(posts);
  t = await createTestApp({ notas: wordpressNotas(wp.url, overrides) });
  await whenNotasRead(t);
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

const postsRequests = (server: WordpressContractServer) => server.requests.filter((r) => r.includes('/wp/v2/posts'));

function quietLog() {
  const warnings: string[] = [];
  const log = { warn: (_o: unknown, m?: string) => warnings.push(m ?? String(_o)), info: () => {} } as never;
  return { log, warnings };
}

/**
 * Runs `work` against the stand-in on a fake clock: the stand-in's slow answers and the reader's time
 * limits are timers of that clock. Between steps the real event loop turns until the requests in
 * transit have reached the stand-in, so the test takes real milliseconds, not the seconds it simulates.
 * Returns the result and the simulated time it took.
 */
async function onFakeClock<T>(server: WordpressContractServer, work: () => Promise<T>, stepMs = 500) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let settled = false;
  const running = work().finally(() => {
    settled = true;
  });
  let simulatedMs = 0;
  while (!settled) {
    // Real turns of the loop (setImmediate is not faked): let requests arrive and answers be read.
    let calm = 0;
    for (let turns = 0; turns < 2_000 && calm < 20 && !settled; turns++) {
      const before = server.requests.length;
      await new Promise((r) => setImmediate(r));
      calm = server.requests.length === before ? calm + 1 : 0;
    }
    if (settled) break;
    await vi.advanceTimersByTimeAsync(stepMs);
    simulatedMs += stepMs;
    if (simulatedMs > 10 * 60_000) throw new Error('más de diez minutos simulados sin terminar');
  }
  const result = await running;
  vi.useRealTimers();
  return { result, simulatedMs };
}

describe('notas from WordPress', () => {
  it('reads every page with only the fields it uses, a few pages at a time: 250 posts, newest first', async () => {
    const { wp, t } = await appWith(makePosts(250));
    const titles = await allTitles(t.app);
    expect(titles).toHaveLength(250);
    expect(titles[0]).toBe('Entrada 250 “WordPress”');
    expect(titles.at(-1)).toBe('Entrada 1 “WordPress”');
    const fields = '_fields=id%2Cdate%2Cdate_gmt%2Ctitle%2Ccontent%2Cfeatured_media';
    expect(postsRequests(wp).sort()).toEqual(
      [1, 2, 3, 4, 5].map((page) => `/wp-json/wp/v2/posts?${fields}&per_page=50&page=${page}`),
    );
    // No _embed: WordPress would render authors, terms and media for every post.
    expect(wp.requests.some((r) => r.includes('_embed'))).toBe(false);
    expect(wp.maxInFlight).toBeLessThanOrEqual(3);
  });

  it('asks for pages of the configured size, never more than the configured number at a time', async () => {
    wp = await startWordpressContractServer(makePosts(95));
    wp.mode = 'slow';
    wp.slowMs = 1_000;
    const { log } = quietLog();
    const source = createWordpressSource({ config: wordpressNotas(wp.url, { pageSize: 10, concurrency: 2 }), log });
    const { result: snap } = await onFakeClock(wp, () => source.snapshot());
    expect(snap.posts).toHaveLength(95);
    expect(postsRequests(wp)).toHaveLength(10);
    expect(postsRequests(wp).every((r) => r.includes('per_page=10&'))).toBe(true);
    expect(wp.maxInFlight).toBe(2);
  });

  it('serves from its copy for a minute instead of asking WordPress on every visit', async () => {
    const { wp, t } = await appWith(makePosts(5));
    await t.app.inject({ url: '/api/notas' });
    await t.app.inject({ url: '/api/notas' });
    await t.app.inject({ url: '/api/notas?page=1&pageSize=2' });
    expect(wp.requests).toHaveLength(1);
  });

  it('maps the featured image from the media it asks for, and sanitises hostile HTML', async () => {
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
    const { wp, t } = await appWith(posts);
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
    expect(wp.requests.filter((r) => r.startsWith('/wp-json/wp/v2/media'))).toEqual([
      '/wp-json/wp/v2/media?include=1007%2C1008&per_page=2&_fields=id%2Csource_url%2Calt_text',
    ]);
  });

  it('shows a post past the sanitiser’s bounds (the nesting bomb) as its text alone, next to the others', async () => {
    const { t } = await appWith([
      {
        id: 1,
        title: 'Bomba',
        html: `<p>Hola</p>${'<b>'.repeat(66_000)}<script>x()</script>fin`,
        dateGmt: '2026-11-20T10:00:00',
      },
      { id: 2, title: 'Normal', html: '<p>Texto <b>bien</b></p>', dateGmt: '2026-11-19T10:00:00' },
    ]);
    const items = (await t.app.inject({ url: '/api/notas' })).json().items;
    expect(items.map((n: { contentHtml: string }) => n.contentHtml)).toEqual([
      '<p>Hola</p><p>fin</p>',
      '<p>Texto <b>bien</b></p>',
    ]);
  });

  it('leaves out password-protected posts, and never shows drafts, private or scheduled ones', async () => {
    const posts = makePosts(6);
    posts[5] = { ...posts[5]!, title: 'Solo con clave', passwordProtected: true };
    posts[4] = { ...posts[4]!, title: 'Borrador', status: 'draft' };
    posts[3] = { ...posts[3]!, title: 'Privada', status: 'private' };
    posts[2] = { ...posts[2]!, title: 'Programada', status: 'future' };
    const { t } = await appWith(posts);
    expect(await allTitles(t.app)).toEqual(['Entrada 2 “WordPress”', 'Entrada 1 “WordPress”']);
  });

  it('turns embedded players into links to what they showed', async () => {
    const posts = makePosts(1);
    posts[0]!.html =
      '<p>Mira el cierre:</p><figure class="wp-block-embed is-provider-youtube"><div class="wp-block-embed__wrapper">' +
      '<iframe title="Cierre &amp; fiesta" width="500" height="281" src="https://www.youtube.com/embed/abc123?feature=oembed" allowfullscreen></iframe>' +
      '</div></figure><iframe src="//player.vimeo.com/video/42"></iframe><video src="https://media.example.org/v.mp4" controls></video>' +
      '<iframe src="javascript:alert(1)"></iframe>';
    const { t } = await appWith(posts);
    const [nota] = (await t.app.inject({ url: '/api/notas' })).json().items;
    expect(nota.contentHtml).toContain(
      '<a href="https://www.youtube.com/embed/abc123?feature=oembed" rel="noopener noreferrer nofollow" target="_blank">Ver «Cierre &amp; fiesta» en www.youtube.com</a>',
    );
    expect(nota.contentHtml).toContain(
      '<a href="https://player.vimeo.com/video/42" rel="noopener noreferrer nofollow" target="_blank">Ver el contenido incrustado en player.vimeo.com</a>',
    );
    expect(nota.contentHtml).toContain('href="https://media.example.org/v.mp4"');
    expect(nota.contentHtml).not.toMatch(/<iframe|<video|javascript:/i);
  });

  it('reads a site without pretty permalinks through ?rest_route=, and goes there first afterwards', async () => {
    wp = await startWordpressContractServer(makePosts(120));
    wp.permalinks = 'plain';
    const { log } = quietLog();
    const source = createWordpressSource({ config: wordpressNotas(wp.url), log, freshMs: 0 });
    const snap = await source.snapshot();
    expect(snap).toMatchObject({ available: true, stale: false });
    expect(snap.posts).toHaveLength(120);
    const first = wp.requests.length;
    expect(wp.requests[0]).toMatch(/^\/wp-json\/wp\/v2\/posts\?/);
    expect(wp.requests.slice(1)).toEqual(
      [1, 2, 3].map(
        (page) =>
          `/?rest_route=%2Fwp%2Fv2%2Fposts&_fields=id%2Cdate%2Cdate_gmt%2Ctitle%2Ccontent%2Cfeatured_media&per_page=50&page=${page}`,
      ),
    );
    await source.snapshot(); // stale at once (freshMs 0): one refresh in the background
    await source.settled();
    expect(wp.requests.slice(first).every((r) => r.startsWith('/?rest_route='))).toBe(true);
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
      t = await createTestApp({ notas: wordpressNotas(wp.url) });
      expect(await whenNotasRead(t)).toMatchObject({
        items: [],
        total: 0,
        state: 'unavailable',
        notice: 'No pudimos cargar las notas en este momento. Intenta de nuevo en unos minutos.',
      });
    },
  );

  describe('a slow site that answers', () => {
    it('gives a complete copy when every page takes 8 seconds (the default limits)', async () => {
      wp = await startWordpressContractServer(makePosts(250));
      wp.mode = 'slow';
      wp.slowMs = 8_000;
      const { log, warnings } = quietLog();
      const source = createWordpressSource({ config: wordpressNotas(wp.url), log });
      const { result: snap, simulatedMs } = await onFakeClock(wp, () => source.snapshot());
      expect(snap).toMatchObject({ available: true, stale: false });
      expect(snap.posts).toHaveLength(250);
      expect(snap.posts[0]?.title).toBe('Entrada 250 “WordPress”');
      expect(warnings).toEqual([]);
      // Five pages: the first, then the other four three at a time. In turn they would take 40 s.
      expect(postsRequests(wp)).toHaveLength(5);
      expect(wp.maxInFlight).toBe(3);
      expect(simulatedMs).toBeLessThan(40_000);
    });

    it('still ends in a copy when pages take longer than the time limit: the next try waits longer', async () => {
      wp = await startWordpressContractServer(makePosts(120));
      wp.mode = 'slow';
      wp.slowMs = 8_000;
      const { log, warnings } = quietLog();
      // The old fixed limit: 5 s. A try that gets no answer is repeated with 10 s, then 20 s.
      const source = createWordpressSource({ config: wordpressNotas(wp.url, { timeoutMs: 5_000 }), log });
      const { result: snap } = await onFakeClock(wp, () => source.snapshot());
      expect(snap).toMatchObject({ available: true, stale: false });
      expect(snap.posts).toHaveLength(120);
      expect(warnings).toEqual([]);
      expect(postsRequests(wp)).toHaveLength(6); // 3 pages, each tried twice
    });

    it('gives up, with the reason in the log, when no try gets an answer', async () => {
      wp = await startWordpressContractServer(makePosts(3));
      wp.mode = 'slow';
      wp.slowMs = 60 * 60_000;
      const { log, warnings } = quietLog();
      const source = createWordpressSource({ config: wordpressNotas(wp.url, { timeoutMs: 1_000 }), log });
      const { result: snap, simulatedMs } = await onFakeClock(wp, () => source.snapshot(), 250);
      expect(snap).toMatchObject({ posts: [], available: false, stale: true });
      expect(postsRequests(wp)).toHaveLength(3);
      expect(simulatedMs).toBeLessThanOrEqual(1_000 + 2_000 + 4_000 + 250);
      expect(warnings[0]).toMatch(/sin respuesta en 4000 ms/);
    });
  });

  it('reads the first copy as the server starts, before anyone asks', async () => {
    const { wp } = await appWith(makePosts(3));
    // Nothing is asked of the app: the stand-in sees the read of the first page all the same.
    await wp.whenRequested((path) => path.includes('/wp/v2/posts'));
    expect(postsRequests(wp)).toHaveLength(1);
  });
});

describe('a start while WordPress does not answer', () => {
  const LOADING = 'Las notas todavía no están disponibles: se están cargando y aparecerán aquí en cuanto lleguen.';

  it('answers /, /notas and /api/notas at once, agenda and menu included; the notas and their images come when WordPress answers', async () => {
    const posts = makePosts(3);
    posts[2]!.html = '<p>Acto de cierre</p><p><img src="https://cdn.example.org/2026/11/cierre.jpg" alt="Cierre"></p>';
    wp = await startWordpressContractServer(posts);
    // WordPress takes the connection and never answers, until the test lets it.
    const release = wp.hold();
    const webRoot = builtWebRoot();
    try {
      t = await createTestApp({
        notas: wordpressNotas(wp.url),
        webRoot,
        rendererModule: RENDERER,
        now: () => new Date('2026-11-22T15:00:00Z'),
      });
      await addAgendaEvent(t, { fecha: '2026-11-22', descripcion: 'Caravana por Cabimas' });
      await wp.whenRequested((p) => p.includes('/wp/v2/posts'));

      const api = await t.app.inject({ url: '/api/notas' });
      const home = await t.app.inject({ url: '/' });
      const notas = await t.app.inject({ url: '/notas' });
      // All three answered while the first read was still held by WordPress.
      expect(wp.pending).toBeGreaterThan(0);
      expect(api.statusCode).toBe(200);
      expect(api.json()).toEqual({
        items: [],
        page: 1,
        pageSize: 10,
        total: 0,
        totalPages: 1,
        state: 'loading',
        notice: LOADING,
      });
      expect(home.statusCode).toBe(200);
      expect(home.body).toContain(LOADING);
      expect(home.body).toContain('Caravana por Cabimas');
      expect(home.body).toContain('Iniciar sesión');
      expect(notas.statusCode).toBe(200);
      expect(notas.body).toContain(LOADING);
      expect(notas.body).not.toContain('Todavía no hay notas publicadas.');
      expect(imgSrc(notas)).not.toContain('https://cdn.example.org');

      release();
      expect(await whenNotasRead(t)).toMatchObject({ state: 'ready', total: 3 });
      const after = await t.app.inject({ url: '/notas' });
      expect(after.body).toContain('Entrada 3 “WordPress”');
      expect(after.body).not.toContain(LOADING);
      expect(after.body).toContain('src="https://cdn.example.org/2026/11/cierre.jpg"');
      expect(imgSrc(after)).toContain('https://cdn.example.org');
      expect((await t.app.inject({ url: '/' })).body).toContain('Entrada 3 “WordPress”');
    } finally {
      release();
      fs.rmSync(webRoot, { recursive: true, force: true });
    }
  });
});

const imgSrc = (res: { headers: Record<string, unknown> }) =>
  /img-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1]?.trim().split(/\s+/);

describe('images of the notas and the Content-Security-Policy', () => {
  it('allows images from the site, the configured origins and every origin the posts use', async () => {
    const posts = makePosts(3);
    posts[0]!.html = '<p><img src="https://cdn.example.org/2026/11/a.jpg"></p>';
    posts[1]!.html = '<img src="http://www.blog.example.org/b.png"><img src="https://cdn.example.org/c.jpg">';
    posts[2]!.image = { url: 'https://i0.wp.com/blog.example.org/portada.jpg', alt: '' };
    const { wp, t } = await appWith(posts, { imageOrigins: ['https://fotos.example.net'] });
    await t.app.inject({ url: '/api/notas' });
    expect(imgSrc(await t.app.inject({ url: '/notas' }))).toEqual([
      "'self'",
      'data:',
      'blob:',
      wp.url,
      'https://fotos.example.net',
      'http://www.blog.example.org',
      'https://cdn.example.org',
      'https://i0.wp.com',
    ]);
  });

  it('allows https images anywhere when the notas are our own (the editor links them by URL)', async () => {
    t = await createTestApp();
    expect(imgSrc(await t.app.inject({ url: '/api/health' }))).toEqual(["'self'", 'data:', 'blob:', 'https:']);
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
