import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAgendaEvent } from '#server/testing/agenda';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { addNota } from '#server/testing/notas';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { builtWebRoot, TEST_PUBLIC_SCRIPT } from '#server/testing/web-root';
import { PUBLIC_DATA_ELEMENT_ID } from '#shared/platform/public-pages';

// The server loads the rendering module by path: here the source itself, which Vitest compiles on the fly
// (in production, its build in dist-ssr/). The template is the project's own index.html.
const repo = path.resolve(import.meta.dirname, '../..');
const RENDERER = path.join(repo, 'src/web/app/entry-server.tsx');
const TODAY = '2026-11-22';
// 23:30 in Caracas: already the 23rd in UTC.
const NOW = '2026-11-23T03:30:00Z';
const HOSTILE = '</script><script>window.__pwned=1</script><!--';

const PUBLIC_SCRIPT = TEST_PUBLIC_SCRIPT;

let webRoot: string;
let t: TestApp;
beforeAll(() => {
  webRoot = builtWebRoot(fs.readFileSync(path.join(repo, 'index.html'), 'utf8'));
});
afterAll(() => fs.rmSync(webRoot, { recursive: true, force: true }));
afterEach(async () => t?.close());

async function app(): Promise<TestApp> {
  t = await createTestApp({ webRoot, rendererModule: RENDERER, now: () => new Date(NOW) });
  return t;
}

/** The JSON the page carries, as the browser reads it (the text of the script element). */
function embedded(html: string): Record<string, unknown> {
  const match = new RegExp(`<script type="application/json" id="${PUBLIC_DATA_ELEMENT_ID}">([^<]*)</script>`).exec(
    html,
  );
  if (!match?.[1]) throw new Error('the page carries no data');
  return JSON.parse(match[1]);
}

/** Every <script> start tag of the page. */
const scriptTags = (html: string) => html.match(/<script\b[^>]*>/gi) ?? [];

/** Every script element of a page, whole: its opening tag and its text. */
const scriptElements = (html: string) =>
  [...html.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/gi)].map(([, tag = '', text = '']) => ({ tag, text }));

/**
 * The page runs nothing but our own files (its own script last); the data block is never run. Nothing a
 * title or a description holds can add a script.
 */
function expectOnlyOurScripts(html: string): void {
  const run = scriptElements(html).filter(({ tag }) => !tag.includes('type="application/json"'));
  for (const { tag, text } of run) {
    expect(tag).toMatch(/^<script type="module" src="\/[^"]+"/);
    expect(text).toBe('');
  }
  expect(run.at(-1)?.tag).toContain(`src="${PUBLIC_SCRIPT}"`);
}

describe('the public pages come rendered by the server', () => {
  it("/agenda holds today's events in Caracas, in 12-hour time with the fallbacks, and the answer it shows", async () => {
    const { app: server } = await app();
    await addAgendaEvent(t, {
      fecha: TODAY,
      hora24h: '18:30',
      descripcion: 'Caravana de cierre',
      lugar: 'Av. 5 de Julio',
    });
    await addAgendaEvent(t, { fecha: TODAY, hora24h: '07:05', descripcion: 'Desayuno con líderes', lugar: '' });
    await addAgendaEvent(t, { fecha: TODAY, hora24h: '25:99', descripcion: '', lugar: 'Plaza' });
    await addAgendaEvent(t, { fecha: '2026-11-23', hora24h: '08:00', descripcion: 'Evento de mañana', lugar: 'X' });

    const res = await server.inject({ url: '/agenda' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const html = res.body;
    expect(html).toContain('<title>Agenda · Comando Pruebas</title>');
    expect(html).toContain('DOMINGO, 22 NOV');
    const times = [...html.matchAll(/data-testid="agenda-time">([^<]*)</g)].map((m) => m[1]);
    expect(times).toEqual(['7:05 AM', '6:30 PM', 'Hora no disponible']);
    expect(html).toContain('Lugar no disponible');
    expect(html).toContain('Descripción no disponible');
    expect(html).toContain('Copiar agenda');
    expect(html).not.toContain('Evento de mañana');
    // The page carries exactly the API's answers, so the app asks for neither again.
    const data = embedded(html);
    expect(data.agendaToday).toEqual((await server.inject({ url: '/api/agenda/today' })).json());
    expect(data.site).toEqual((await server.inject({ url: '/api/site' })).json());
    expect(data).not.toHaveProperty('notas');
    // Readable without JavaScript: no "needs JavaScript" message.
    expect(html).not.toContain('<noscript>');
  });

  it('/notas holds the notas: titles, dates and their content behind a native Ver más...', async () => {
    const { app: server } = await app();
    await addNota(t, {
      title: 'Primera nota',
      html: '<h2>Subtítulo</h2><p>Contenido de la nota.</p>',
      published: true,
    });
    await addNota(t, { title: 'Borrador', html: '<p>todavía no</p>' });

    const html = (await server.inject({ url: '/notas' })).body;
    expect(html).toContain('<title>Notas · Comando Pruebas</title>');
    expect(html).toMatch(/<h2[^>]*>Primera nota<\/h2>/);
    expect(html).toMatch(/<details[^>]*><summary[^>]*><span[^>]*>Ver más\.\.\.<\/span>/);
    expect(html).toContain('<h2>Subtítulo</h2><p>Contenido de la nota.</p>');
    expect(html).not.toContain('Borrador');
    expect(embedded(html).notas).toEqual((await server.inject({ url: '/api/notas?page=1&pageSize=10' })).json());
  });

  it("/ holds today's first events, the latest three notas and the campaign", async () => {
    const { app: server } = await app();
    for (const [hora24h, descripcion] of [
      ['09:00', 'Uno'],
      ['10:00', 'Dos'],
      ['11:00', 'Tres'],
      ['12:00', 'Cuatro'],
    ]) {
      await addAgendaEvent(t, { fecha: TODAY, hora24h, descripcion });
    }
    for (const title of ['Nota A', 'Nota B', 'Nota C', 'Nota D']) await addNota(t, { title, published: true });

    const html = (await server.inject({ url: '/' })).body;
    expect(html).toContain('<title>Comando Pruebas</title>');
    expect(html).toContain('Comando Pruebas');
    expect([...html.matchAll(/data-testid="agenda-description">([^<]*)</g)].map((m) => m[1])).toEqual([
      'Uno',
      'Dos',
      'Tres',
    ]);
    expect(html).toContain('Últimas notas');
    expect(embedded(html).notas).toEqual((await server.inject({ url: '/api/notas?page=1&pageSize=3' })).json());
    expect(embedded(html).notas).toMatchObject({ pageSize: 3, items: { length: 3 } });
  });

  it('keeps a hostile description or title inert: escaped in the markup, `<` escaped in the data', async () => {
    const { app: server } = await app();
    await addAgendaEvent(t, {
      fecha: TODAY,
      hora24h: '09:00',
      descripcion: HOSTILE,
      lugar: '<img src=x onerror=alert(1)>',
    });
    // Titles are stored as plain text: character references become the characters themselves.
    await addNota(t, { title: '&lt;/script&gt;&lt;script&gt;window.__pwned=2&lt;/script&gt;', published: true });

    for (const url of ['/', '/agenda', '/notas']) {
      const html = (await server.inject({ url })).body;
      // Only the page's own script and the data block: nothing the content brought.
      expectOnlyOurScripts(html);
      expect(html).not.toContain('__pwned=1</script>');
      expect(html).not.toContain('<img src=x');
      expect(html).not.toMatch(/<script>window\.__pwned/);
      const data = embedded(html);
      if (url !== '/notas') {
        expect(html).toContain('&lt;/script&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;&lt;!--');
        // Read back, the text is exactly what was stored.
        expect((data.agendaToday as { events: { descripcion: string }[] }).events[0]?.descripcion).toBe(HOSTILE);
      }
      if (url !== '/agenda') {
        expect((data.notas as { items: { title: string }[] }).items[0]?.title).toBe(
          '</script><script>window.__pwned=2</script>',
        );
      }
    }
  });

  it('shows a change of the agenda, the notas or the settings made through this server at once', async () => {
    const { app: server } = await app();
    await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
    const cookie = await sessionCookie(t, 'jefa@example.org');
    const first = (await server.inject({ url: '/' })).body;
    expect(first).toContain('No hay eventos en la agenda de hoy.');
    expect(first).toContain('Todavía no hay notas publicadas.');

    const event = await t.request({
      method: 'POST',
      url: '/api/admin/agenda',
      headers: { cookie },
      payload: { fecha: TODAY, hora24h: '16:00', descripcion: 'Mitin recién creado', lugar: 'Plaza Bolívar' },
    });
    expect(event.statusCode).toBe(201);
    const nota = await t.request({
      method: 'POST',
      url: '/api/admin/notas',
      headers: { cookie },
      payload: { title: 'Nota recién publicada', contentHtml: '<p>x</p>', publish: true },
    });
    expect(nota.statusCode).toBe(201);
    const settings = (await t.request({ url: '/api/admin/settings', headers: { cookie } })).json();
    const saved = await t.request({
      method: 'PUT',
      url: '/api/admin/settings',
      headers: { cookie },
      payload: { ...settings, leaderName: 'Líder Renovada' },
    });
    expect(saved.statusCode).toBe(200);

    const home = (await server.inject({ url: '/' })).body;
    expect(home).toContain('Mitin recién creado');
    expect(home).toContain('Nota recién publicada');
    expect(home).toContain('Líder Renovada');
    expect((await server.inject({ url: '/agenda' })).body).toContain('Mitin recién creado');
    expect((await server.inject({ url: '/notas' })).body).toContain('Nota recién publicada');
  });

  it('keeps scripts locked down: none inline, only our own files', async () => {
    const { app: server } = await app();
    for (const url of ['/', '/agenda', '/notas']) {
      const res = await server.inject({ url });
      const csp = String(res.headers['content-security-policy']);
      const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'));
      expect(scriptSrc?.trim()).toBe("script-src 'self'");
      expectOnlyOurScripts(res.body);
    }
  });

  it('sends each page compressed as the browser accepts it, the same page in every encoding', async () => {
    const { app: server } = await app();
    await addAgendaEvent(t, { fecha: TODAY, descripcion: 'Caminata' });
    const plain = await server.inject({ url: '/agenda' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await server.inject({ url: '/agenda', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await server.inject({ url: '/agenda', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(plain.body).toContain('Caminata');
  });

  it("writes the app's stylesheet into the page (one round trip less before the first paint)", async () => {
    const built = builtWebRoot(
      fs
        .readFileSync(path.join(repo, 'index.html'), 'utf8')
        .replace('</head>', '<link rel="stylesheet" crossorigin href="/assets/index-abc.css">\n</head>'),
    );
    try {
      fs.mkdirSync(path.join(built, 'assets'));
      fs.writeFileSync(path.join(built, 'assets', 'index-abc.css'), 'main{color:#1f2937}');
      t = await createTestApp({ webRoot: built, rendererModule: RENDERER, now: () => new Date(NOW) });
      const page = (await t.app.inject({ url: '/agenda' })).body;
      expect(page).toContain('<style>main{color:#1f2937}</style>');
      expect(page).not.toContain('index-abc.css');
      // Other pages keep the link (and the browser's cached copy of the sheet).
      expect((await t.app.inject({ url: '/login' })).body).toContain('href="/assets/index-abc.css"');
    } finally {
      fs.rmSync(built, { recursive: true, force: true });
    }
  });

  it("runs their own script instead of the app's code, with the app's addresses for when it is needed; the shell keeps the app", async () => {
    const built = builtWebRoot(
      fs
        .readFileSync(path.join(repo, 'index.html'), 'utf8')
        .replace('</head>', '<link rel="modulepreload" crossorigin href="/assets/chunk-abc.js">\n</head>'),
    );
    try {
      t = await createTestApp({ webRoot: built, rendererModule: RENDERER, now: () => new Date(NOW) });
      for (const url of ['/', '/agenda', '/notas']) {
        const page = (await t.app.inject({ url })).body;
        // Nothing of the app is asked for: its addresses are attributes of the page's own script, last.
        expect(page, url).not.toContain('rel="modulepreload"');
        expect(
          scriptTags(page).filter((tag) => tag.includes('src=')),
          url,
        ).toEqual([
          `<script type="module" src="${PUBLIC_SCRIPT}" data-app-module="/src/web/main.tsx" data-app-chunks="/assets/chunk-abc.js">`,
        ]);
        expect(page.indexOf(PUBLIC_SCRIPT), url).toBeGreaterThan(page.indexOf(`id="${PUBLIC_DATA_ELEMENT_ID}"`));
        // What the script clones: the menu and the login icon, made by the app's components, outside its root.
        expect(page, url).toMatch(/<template id="plantilla-menu">[\s\S]*data-testid="mobile-menu"[\s\S]*<\/template>/);
        expect(page, url).toMatch(/<template id="plantilla-acceso"><a [^>]*aria-label="Iniciar sesión"/);
        expect(page.indexOf('<template'), url).toBeGreaterThan(page.indexOf('<div id="root">'));
      }
      // The menu leaves out the page it is on; only /notas carries a nota to fill in.
      const agenda = (await t.app.inject({ url: '/agenda' })).body;
      const menu = /<template id="plantilla-menu">([\s\S]*?)<\/template>/.exec(agenda)?.[1] ?? '';
      expect([...menu.matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map((m) => m[1])).toEqual([
        'Inicio',
        'Notas',
        'Iniciar sesión',
      ]);
      expect(agenda).not.toContain('plantilla-nota');
      expect((await t.app.inject({ url: '/notas' })).body).toMatch(/<template id="plantilla-nota"><article /);

      const shell = (await t.app.inject({ url: '/login' })).body;
      expect(shell).toContain('<script type="module" src="/src/web/main.tsx">');
      expect(shell).toContain('<link rel="modulepreload" crossorigin href="/assets/chunk-abc.js">');
      expect(shell).not.toContain(PUBLIC_SCRIPT);
    } finally {
      fs.rmSync(built, { recursive: true, force: true });
    }
  });

  it('sends the plain shell on these paths when the build has no script of theirs', async () => {
    const built = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-web-'));
    try {
      fs.copyFileSync(path.join(repo, 'index.html'), path.join(built, 'index.html'));
      t = await createTestApp({ webRoot: built, rendererModule: RENDERER, now: () => new Date(NOW) });
      const page = (await t.app.inject({ url: '/agenda' })).body;
      expect(page).toContain('<div id="root"></div>');
      expect(page).toContain('<script type="module" src="/src/web/main.tsx">');
    } finally {
      fs.rmSync(built, { recursive: true, force: true });
    }
  });

  it('sends the plain shell for other spellings of these paths, and for every other page', async () => {
    const { app: server } = await app();
    for (const url of ['/agenda/', '/login', '/resultados']) {
      const res = await server.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).not.toContain(PUBLIC_DATA_ELEMENT_ID);
    }
  });
});
