// A local server that speaks the documented WordPress REST contract for posts
// (GET /wp-json/wp/v2/posts with per_page, page, _embed; X-WP-Total and X-WP-TotalPages headers;
// 400 rest_post_invalid_page_number past the last page; 400 rest_invalid_param for per_page > 100),
// with switches for outages, slow answers and malformed JSON. Used by the adapter's tests and e2e.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type WordpressMode = 'ok' | 'down' | 'slow' | 'malformed';

export interface FakePost {
  id: number;
  title: string;
  html: string;
  dateGmt: string;
  image?: { url: string; alt: string };
}

export function makePosts(n: number, start = Date.parse('2026-01-01T12:00:00Z')): FakePost[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    title: `Entrada ${i + 1} &#8220;WordPress&#8221;`,
    html: `<p>Contenido de la entrada ${i + 1}</p>`,
    dateGmt: new Date(start + i * 3_600_000).toISOString().slice(0, 19),
  }));
}

export interface WordpressContractServer {
  url: string;
  posts: FakePost[];
  mode: WordpressMode;
  slowMs: number;
  /** Every request path the server received, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startWordpressContractServer(posts: FakePost[], port = 0): Promise<WordpressContractServer> {
  const state = { mode: 'ok' as WordpressMode, slowMs: 10_000, requests: [] as string[], posts };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    state.requests.push(url.pathname + url.search);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (state.mode === 'down') return send(503, { code: 'service_unavailable', message: 'Mantenimiento' });
    if (url.pathname !== '/wp-json/wp/v2/posts') {
      return send(404, {
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
    }
    const perPage = Number(url.searchParams.get('per_page') ?? 10);
    const page = Number(url.searchParams.get('page') ?? 1);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
      return send(400, {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): per_page',
        data: { status: 400, params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' } },
      });
    }
    const sorted = [...state.posts].sort((a, b) => b.dateGmt.localeCompare(a.dateGmt));
    const total = sorted.length;
    const totalPages = Math.ceil(total / perPage);
    if (page < 1 || (page > totalPages && !(page === 1 && total === 0))) {
      return send(400, {
        code: 'rest_post_invalid_page_number',
        message: 'The page number requested is larger than the number of pages available.',
        data: { status: 400 },
      });
    }
    const embed = url.searchParams.has('_embed');
    const body = sorted.slice((page - 1) * perPage, page * perPage).map((p) => ({
      id: p.id,
      date: p.dateGmt,
      date_gmt: p.dateGmt,
      status: 'publish',
      type: 'post',
      link: `http://wordpress.test/?p=${p.id}`,
      title: { rendered: p.title },
      content: { rendered: p.html, protected: false },
      excerpt: { rendered: '', protected: false },
      featured_media: p.image ? p.id + 1000 : 0,
      ...(embed && p.image
        ? { _embedded: { 'wp:featuredmedia': [{ id: p.id + 1000, source_url: p.image.url, alt_text: p.image.alt }] } }
        : {}),
    }));
    const headers = { 'x-wp-total': String(total), 'x-wp-totalpages': String(totalPages) };
    if (state.mode === 'malformed') return send(200, '[{"id": 1, "title": {"rendered": "roto"', headers);
    if (state.mode === 'slow') {
      const timer = setTimeout(() => send(200, body, headers), state.slowMs);
      req.on('close', () => clearTimeout(timer));
      return;
    }
    return send(200, body, headers);
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
    get requests() {
      return state.requests;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return handle;
}

// `tsx tests/support/wordpress-contract-server.ts <port> <posts>`: run it on its own (end-to-end tests).
if (process.argv[1]?.endsWith('wordpress-contract-server.ts')) {
  const port = Number(process.argv[2] ?? 4313);
  const n = Number(process.argv[3] ?? 250);
  const server = await startWordpressContractServer(makePosts(n), port);
  console.log(`WordPress de prueba con ${n} entradas en ${server.url}`);
}
