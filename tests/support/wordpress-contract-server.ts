// A local server that speaks the documented WordPress REST contract for posts and media, as WordPress 6
// answers anonymous readers:
//   GET /wp-json/wp/v2/posts?per_page=&page=&_fields=&_embed  (or /?rest_route=/wp/v2/posts&..., the form
//       that works without pretty permalinks) → published posts, newest first, with X-WP-Total and
//       X-WP-TotalPages; 400 rest_post_invalid_page_number past the last page; 400 rest_invalid_param for
//       per_page outside 1–100. Password-protected posts come with `content.protected: true` and an empty
//       body; drafts, private and scheduled posts never come. `_fields` keeps only the fields it names.
//   GET /wp-json/wp/v2/media?include=1,2&per_page=&_fields= → those attachments (featured images).
//   GET /wp-content/uploads/<name>.png → a small PNG (images that posts show from the site).
// With `permalinks = 'plain'`, /wp-json/ is not there (404 HTML page) and only `?rest_route=` answers.
// Switches for outages, slow answers (a fake clock in tests moves them on) and malformed JSON. Used by
// the adapter's tests and the end-to-end suite.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type WordpressMode = 'ok' | 'down' | 'slow' | 'malformed';

export interface FakePost {
  id: number;
  title: string;
  html: string;
  dateGmt: string;
  image?: { url: string; alt: string };
  /** Password-protected: WordPress sends it without its body. */
  passwordProtected?: boolean;
  /** Only published posts are served to anonymous readers. */
  status?: 'publish' | 'draft' | 'private' | 'future';
}

export function makePosts(n: number, start = Date.parse('2026-01-01T12:00:00Z')): FakePost[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    title: `Entrada ${i + 1} &#8220;WordPress&#8221;`,
    html: `<p>Contenido de la entrada ${i + 1}</p>`,
    dateGmt: new Date(start + i * 3_600_000).toISOString().slice(0, 19),
  }));
}

/** An 8×6 red PNG, what /wp-content/uploads/ serves. */
export const UPLOADED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWM4IaeBFTEMpAQA9EgyoVMbuMcAAAAASUVORK5CYII=',
  'base64',
);

export interface WordpressContractServer {
  url: string;
  posts: FakePost[];
  mode: WordpressMode;
  /** How long each answer takes in 'slow' mode. */
  slowMs: number;
  /** 'plain': no /wp-json/ (a site without pretty permalinks), only `?rest_route=`. */
  permalinks: 'pretty' | 'plain';
  /** Every request path the server received, in order. */
  requests: string[];
  /** Resolves once at least `count` of the request paths received match (at once if they already have). */
  whenRequested(match: (path: string) => boolean, count?: number): Promise<void>;
  /**
   * Keeps every REST answer from now on until the returned function is called (a read the test holds in
   * flight, on no clock); then they go out and later requests are answered as usual.
   */
  hold(): () => void;
  /** Requests received and not answered yet. */
  readonly pending: number;
  /** The most requests that were waiting for their answer at the same time. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

export async function startWordpressContractServer(posts: FakePost[], port = 0): Promise<WordpressContractServer> {
  const state = {
    mode: 'ok' as WordpressMode,
    slowMs: 10_000,
    permalinks: 'pretty' as 'pretty' | 'plain',
    requests: [] as string[],
    posts,
    pending: 0,
    maxInFlight: 0,
    held: undefined as (() => void)[] | undefined,
  };
  const waiters = new Set<() => void>();

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    state.requests.push(url.pathname + url.search);
    for (const check of waiters) check();
    state.pending++;
    state.maxInFlight = Math.max(state.maxInFlight, state.pending);
    let answered = false;
    const done = () => {
      if (answered) return;
      answered = true;
      state.pending--;
    };
    res.on('close', done);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const write = () => {
        done();
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      if (state.held) return void state.held.push(write);
      if (state.mode !== 'slow') return write();
      const timer = setTimeout(write, state.slowMs);
      res.on('close', () => clearTimeout(timer));
    };

    if (url.pathname.startsWith('/wp-content/uploads/') && url.pathname.endsWith('.png')) {
      done();
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(UPLOADED_PNG.length) });
      return res.end(UPLOADED_PNG);
    }
    if (state.mode === 'down') return send(503, { code: 'service_unavailable', message: 'Mantenimiento' });

    // The REST route, from the pretty address or from ?rest_route= (which every WordPress accepts).
    let route: string | null = null;
    const params = new URLSearchParams(url.searchParams);
    if (url.pathname.startsWith('/wp-json/')) {
      if (state.permalinks === 'plain') {
        done();
        res.writeHead(404, { 'content-type': 'text/html; charset=UTF-8' });
        return res.end('<!doctype html><title>Página no encontrada</title><h1>No se encontró nada</h1>');
      }
      route = url.pathname.slice('/wp-json'.length);
    } else if ((url.pathname === '/' || url.pathname === '/index.php') && params.has('rest_route')) {
      route = params.get('rest_route');
      params.delete('rest_route');
    }
    if (route === null) {
      done();
      res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' });
      return res.end('<!doctype html><title>Blog</title><p>Inicio del sitio</p>');
    }
    route = route.replace(/\/+$/, '');
    if (route === '/wp/v2/posts') return listPosts(params);
    if (route === '/wp/v2/media') return listMedia(params);
    return send(404, {
      code: 'rest_no_route',
      message: 'No route was found matching the URL and request method.',
      data: { status: 404 },
    });

    function pick(item: Record<string, unknown>, fields: string | null): Record<string, unknown> {
      if (!fields) return item;
      const keep = new Set(fields.split(',').map((f) => f.trim().split('.')[0]));
      return Object.fromEntries(Object.entries(item).filter(([key]) => keep.has(key)));
    }

    function perPageOf(p: URLSearchParams) {
      const perPage = Number(p.get('per_page') ?? 10);
      if (Number.isInteger(perPage) && perPage >= 1 && perPage <= 100) return perPage;
      send(400, {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): per_page',
        data: { status: 400, params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' } },
      });
      return null;
    }

    function listPosts(p: URLSearchParams) {
      const perPage = perPageOf(p);
      if (perPage === null) return;
      const page = Number(p.get('page') ?? 1);
      const published = state.posts.filter((post) => (post.status ?? 'publish') === 'publish');
      const sorted = published.sort((a, b) => b.dateGmt.localeCompare(a.dateGmt));
      const total = sorted.length;
      const totalPages = Math.ceil(total / perPage);
      if (page < 1 || (page > totalPages && !(page === 1 && total === 0))) {
        return send(400, {
          code: 'rest_post_invalid_page_number',
          message: 'The page number requested is larger than the number of pages available.',
          data: { status: 400 },
        });
      }
      const embed = p.has('_embed');
      const body = sorted.slice((page - 1) * perPage, page * perPage).map((post) =>
        pick(
          {
            id: post.id,
            date: post.dateGmt,
            date_gmt: post.dateGmt,
            status: 'publish',
            type: 'post',
            link: `http://wordpress.test/?p=${post.id}`,
            title: { rendered: post.title },
            content: { rendered: post.passwordProtected ? '' : post.html, protected: Boolean(post.passwordProtected) },
            excerpt: { rendered: '', protected: Boolean(post.passwordProtected) },
            featured_media: post.image ? post.id + 1000 : 0,
            ...(embed && post.image
              ? {
                  _embedded: {
                    'wp:featuredmedia': [{ id: post.id + 1000, source_url: post.image.url, alt_text: post.image.alt }],
                  },
                }
              : {}),
          },
          p.get('_fields'),
        ),
      );
      const headers = { 'x-wp-total': String(total), 'x-wp-totalpages': String(totalPages) };
      if (state.mode === 'malformed') return send(200, '[{"id": 1, "title": {"rendered": "roto"', headers);
      return send(200, body, headers);
    }

    function listMedia(p: URLSearchParams) {
      const perPage = perPageOf(p);
      if (perPage === null) return;
      const include = new Set((p.get('include') ?? '').split(',').filter(Boolean).map(Number));
      const items = state.posts
        .filter((post) => post.image && (include.size === 0 || include.has(post.id + 1000)))
        .slice(0, perPage)
        .map((post) =>
          pick(
            {
              id: post.id + 1000,
              type: 'attachment',
              media_type: 'image',
              source_url: post.image?.url,
              alt_text: post.image?.alt,
            },
            p.get('_fields'),
          ),
        );
      return send(200, items, { 'x-wp-total': String(items.length), 'x-wp-totalpages': '1' });
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  const handle: WordpressContractServer = {
    url: `http://127.0.0.1:${address.port}`,
    get posts() {
      return state.posts;
    },
    set posts(p: FakePost[]) {
      state.posts = p;
    },
    get mode() {
      return state.mode;
    },
    set mode(m: WordpressMode) {
      state.mode = m;
    },
    get slowMs() {
      return state.slowMs;
    },
    set slowMs(ms: number) {
      state.slowMs = ms;
    },
    get permalinks() {
      return state.permalinks;
    },
    set permalinks(p: 'pretty' | 'plain') {
      state.permalinks = p;
    },
    get requests() {
      return state.requests;
    },
    whenRequested(match, count = 1) {
      return new Promise<void>((resolve) => {
        const check = () => {
          if (state.requests.filter(match).length < count) return false;
          waiters.delete(check);
          resolve();
          return true;
        };
        if (!check()) waiters.add(check);
      });
    },
    hold() {
      state.held ??= [];
      return () => {
        const writes = state.held ?? [];
        state.held = undefined;
        for (const write of writes) write();
      };
    },
    get pending() {
      return state.pending;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return handle;
}

/**
 * The end-to-end site: `n` posts; the newest shows a picture from another host name of the same server
 * (`localhost` where WORDPRESS_URL says 127.0.0.1, as a media subdomain or a CDN would) and a video
 * embedded from elsewhere.
 */
export function e2ePosts(n: number, port: number): FakePost[] {
  const posts = makePosts(n);
  const newest = posts.at(-1);
  if (newest) {
    newest.html +=
      `<figure class="wp-block-image"><img src="http://localhost:${port}/wp-content/uploads/2026/11/mitin.png" alt="Mitin en Cabimas" width="8" height="6"></figure>` +
      '<figure class="wp-block-embed"><div class="wp-block-embed__wrapper"><iframe title="Cierre de campaña" src="https://www.youtube.com/embed/abc123?feature=oembed"></iframe></div></figure>';
  }
  return posts;
}

// `tsx tests/support/wordpress-contract-server.ts <port> <posts>`: run it on its own (end-to-end tests).
if (process.argv[1]?.endsWith('wordpress-contract-server.ts')) {
  const port = Number(process.argv[2] ?? 4313);
  const n = Number(process.argv[3] ?? 250);
  const server = await startWordpressContractServer(e2ePosts(n, port), port);
  console.log(`WordPress de prueba con ${n} entradas en ${server.url}`);
}
