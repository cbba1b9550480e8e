import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_DATA_ELEMENT_ID, type PublicPagePath, type PublicPageRenderer } from '#shared/platform/public-pages';
import { publicScriptInstead, publicScriptOf } from './public-script';

/** The API answers a page holds, by name, each as the JSON text its endpoint sends. */
export type PageAnswers = Record<string, string>;

export interface RenderedPagesOptions {
  /** The built SPA (its index.html is the template). */
  webRoot: string | undefined;
  /** The built server rendering module (dist-ssr/entry-server.js). */
  rendererModule: string | undefined;
  /** Each page and how to read the answers it holds. Those readers keep their own short caches. */
  pages: Partial<Record<PublicPagePath, () => Promise<PageAnswers>>>;
}

const ROOT = '<div id="root"></div>';
const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/**
 * The answers as one JSON object for a <script type="application/json">: never run, so the
 * Content-Security-Policy has nothing to allow. Every `<` is written `\u003c` (still the same JSON), so no
 * text in it can close the element or open a comment, whatever a title or a description holds.
 */
function embeddedJson(answers: PageAnswers): string {
  const members = Object.entries(answers).map(([name, json]) => `${JSON.stringify(name)}:${json}`);
  return `{${members.join(',')}}`.replaceAll('<', '\\u003c');
}

// Up to this size the stylesheet travels inside the rendered pages (the whole app's is ~11 KB gzip).
const INLINE_CSS_MAX = 150_000;

/**
 * The app's stylesheet written into the page instead of linked: on a slow link the first paint then
 * waits for nothing but the HTML (a linked sheet is one more round trip, sharing the bandwidth with the
 * app's JavaScript). Style elements are allowed by the policy (style-src 'unsafe-inline'); scripts are not
 * concerned. A sheet that is missing, too big, could close the element or holds a relative url() (it
 * would point elsewhere from the page than from /assets/) stays a link.
 */
function inlineStylesheet(page: string, webRoot: string): string {
  return page.replace(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/, (link, file: string) => {
    const cssFile = path.join(webRoot, file);
    if (!fs.existsSync(cssFile)) return link;
    const css = fs.readFileSync(cssFile, 'utf8');
    const unfit =
      css.length > INLINE_CSS_MAX || /<\/style/i.test(css) || /url\((?!\s*['"]?(?:\/|data:|https?:|#))/i.test(css);
    return unfit ? link : `<style>${css}</style>`;
  });
}

/** A rendered page as sent: the text, and compressed once for every request that accepts it. */
interface RenderedPage {
  answers: PageAnswers;
  html: string;
  br: Buffer;
  gzip: Buffer;
}

function compressed(answers: PageAnswers, html: string): RenderedPage {
  const text = Buffer.from(html);
  return {
    answers,
    html,
    br: zlib.brotliCompressSync(text, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: text.length },
    }),
    gzip: zlib.gzipSync(text, { level: 9 }),
  };
}

/** 'br' or 'gzip' when the request accepts it (a q=0 refuses), brotli first; otherwise undefined. */
function acceptedEncoding(header: string | string[] | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Set<string>();
  for (const part of String(header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (!q || Number(q.slice(2)) > 0) accepted.add(name.trim());
  }
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : undefined;
}

const sameAnswers = (a: PageAnswers, b: PageAnswers) => {
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((n) => a[n] === b[n]);
};

/**
 * Serves the public pages already rendered (the same React components, built by `vite build --ssr`), with
 * the answers they show embedded, so a phone shows them at first paint and the app takes over without
 * asking again. A page is rendered again only when one of its answers changes: as often as the short
 * caches behind the API answers turn, and at once after a change made through this process. Without a
 * build of the rendering module (or if rendering fails) these paths get the plain SPA shell.
 */
export async function registerRenderedPages(app: FastifyInstance, options: RenderedPagesOptions): Promise<void> {
  const templateFile = options.webRoot ? path.join(options.webRoot, 'index.html') : undefined;
  if (!templateFile || !fs.existsSync(templateFile)) return;
  const shell = fs.readFileSync(templateFile, 'utf8');
  if (!shell.includes(ROOT) || !options.rendererModule || !fs.existsSync(options.rendererModule)) {
    app.log.warn('the public pages are served without server rendering: run "npm run build"');
    return;
  }
  const publicScript = publicScriptOf(options.webRoot!);
  if (!publicScript) {
    app.log.warn('the public pages are served without server rendering: their script is missing, run "npm run build"');
    return;
  }
  const renderer = (await import(options.rendererModule)) as PublicPageRenderer;
  // The message for browsers without JavaScript is for the shell; these pages can be read without it.
  // The content is in the HTML; the page's own small script makes it work, not the app (decision 065).
  const template = publicScriptInstead(
    inlineStylesheet(shell.replace(/<noscript>[\s\S]*?<\/noscript>\s*/, ''), options.webRoot!),
    publicScript,
  );

  for (const [pagePath, load] of Object.entries(options.pages) as [PublicPagePath, () => Promise<PageAnswers>][]) {
    let last: RenderedPage | undefined;
    app.get(pagePath, { schema: { hide: true } }, async (request, reply) => {
      reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8');
      // '/agenda/' and the like: the app would draw its menu for another path than the one rendered.
      const requested = request.url.split('?', 1)[0];
      if (requested !== pagePath) return reply.send(shell);
      try {
        const answers = await load();
        if (!last || !sameAnswers(last.answers, answers)) {
          const data = Object.fromEntries(Object.entries(answers).map(([name, json]) => [name, JSON.parse(json)]));
          const { html, title, templates } = renderer.render(pagePath, data);
          const page = template
            .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
            // Functions, not strings: a `$&` in the content must stay as it is.
            .replace(
              ROOT,
              () =>
                `<div id="root">${html}</div><script type="application/json" id="${PUBLIC_DATA_ELEMENT_ID}">${embeddedJson(answers)}</script>${templates}`,
            );
          last = compressed(answers, page);
        }
        // Compressed here once per render, not by the compression plugin on every request (it lets an
        // answer with its Content-Encoding set pass as it is).
        const encoding = acceptedEncoding(request.headers['accept-encoding']);
        reply.header('vary', 'accept-encoding');
        if (encoding) return reply.header('content-encoding', encoding).send(last[encoding]);
        return reply.send(last.html);
      } catch (error) {
        // The shell still works: the app asks the API itself and shows its own error if that fails too.
        request.log.error({ err: error }, `rendering ${pagePath} failed; the SPA shell was sent`);
        return reply.send(shell);
      }
    });
  }
}
