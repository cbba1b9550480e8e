import { createHash } from 'node:crypto';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { codeAfterFirstPaint, TAKE_OVER_SCRIPT, TAKE_OVER_SCRIPT_HASH } from './take-over';

const BUILT = `<!doctype html>
<html lang="es">
  <head>
    <title>Comando</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/jsx-runtime-abc.js">
    <link rel="modulepreload" crossorigin href="/assets/api-client-abc.js">
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  </head>
  <body>
    <div id="root"><main>La agenda</main></div>
  </body>
</html>`;

/** The page in a DOM that runs its scripts, with the frames and timers of the test's own hands. */
function open(html: string, visibility: 'visible' | 'hidden' = 'visible') {
  const frames: (() => void)[] = [];
  const timers: (() => void)[] = [];
  const dom = new JSDOM(html, {
    runScripts: 'dangerously',
    beforeParse(window) {
      Object.defineProperty(window.document, 'visibilityState', { value: visibility });
      window.requestAnimationFrame = (callback) => frames.push(() => callback(0));
      window.setTimeout = ((callback: () => void) => timers.push(callback)) as unknown as typeof window.setTimeout;
    },
  });
  const head = dom.window.document.head;
  return {
    /** What the head asks for: module scripts and module preloads, in order. */
    code: () =>
      [...head.querySelectorAll('script[type="module"], link[rel="modulepreload"]')].map((e) => ({
        tag: e.tagName.toLowerCase(),
        url: e.getAttribute('src') ?? e.getAttribute('href'),
        crossorigin: e.getAttribute('crossorigin'),
        fetchpriority: e.getAttribute('fetchpriority'),
      })),
    /** The browser draws a frame, then runs what was left for after it. */
    paint: () => {
      for (const frame of frames.splice(0)) frame();
      for (const timer of timers.splice(0)) timer();
    },
  };
}

describe('codeAfterFirstPaint', () => {
  it('takes the code out of the head and leaves the stylesheet and the content', () => {
    const html = codeAfterFirstPaint(BUILT);
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-abc.css">');
    expect(html).toContain(
      `<div id="root"><main>La agenda</main></div>\n  <script data-module="/assets/index-abc.js" data-preload="/assets/jsx-runtime-abc.js /assets/api-client-abc.js">${TAKE_OVER_SCRIPT}</script>\n</body>`,
    );
  });

  it('leaves a page without a module script as it is', () => {
    const page = '<html><body><div id="root"></div></body></html>';
    expect(codeAfterFirstPaint(page)).toBe(page);
  });

  it('asks for nothing before the first frame, then for the chunks and the entry, with low priority', () => {
    const page = open(codeAfterFirstPaint(BUILT));
    expect(page.code()).toEqual([]);
    page.paint();
    const asked = (tag: string, url: string) => ({ tag, url, crossorigin: '', fetchpriority: 'low' });
    expect(page.code()).toEqual([
      asked('link', '/assets/jsx-runtime-abc.js'),
      asked('link', '/assets/api-client-abc.js'),
      asked('script', '/assets/index-abc.js'),
    ]);
    // Once only, whatever else runs later.
    page.paint();
    expect(page.code()).toHaveLength(3);
  });

  it('asks at once in a hidden tab, which paints nothing', () => {
    const page = open(codeAfterFirstPaint(BUILT), 'hidden');
    expect(page.code().map((c) => c.url)).toEqual([
      '/assets/jsx-runtime-abc.js',
      '/assets/api-client-abc.js',
      '/assets/index-abc.js',
    ]);
  });

  it("gives the policy the script's own hash", () => {
    const hash = createHash('sha256').update(TAKE_OVER_SCRIPT).digest('base64');
    expect(TAKE_OVER_SCRIPT_HASH).toBe(`'sha256-${hash}'`);
  });
});
