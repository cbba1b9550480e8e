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

/**
 * The page in a DOM that runs its scripts, with frames, timers and paint reports in the test's hands:
 * a browser with paint timing (Chromium, Firefox, Safari) or without.
 */
function open(html: string, { visibility = 'visible', paintTiming = true } = {}) {
  const frames: (() => void)[] = [];
  const timers: { callback: () => void; ms: number }[] = [];
  const observers: ((list: { getEntriesByName(name: string): unknown[] }, observer: { disconnect(): void }) => void)[] =
    [];
  const dom = new JSDOM(html, {
    runScripts: 'dangerously',
    beforeParse(window) {
      Object.defineProperty(window.document, 'visibilityState', { value: visibility });
      window.requestAnimationFrame = (callback) => frames.push(() => callback(0));
      window.setTimeout = ((callback: () => void, ms = 0) =>
        timers.push({ callback, ms })) as unknown as typeof window.setTimeout;
      class FakeObserver {
        static supportedEntryTypes = paintTiming ? ['paint', 'largest-contentful-paint'] : ['mark', 'measure'];
        constructor(private readonly callback: (typeof observers)[number]) {}
        observe({ type }: { type: string }) {
          if (type === 'paint') observers.push(this.callback);
        }
      }
      Object.assign(window, { PerformanceObserver: FakeObserver });
    },
  });
  const head = dom.window.document.head;
  const run = (ms: number) => {
    for (const timer of timers.filter((t) => t.ms <= ms)) {
      timers.splice(timers.indexOf(timer), 1);
      timer.callback();
    }
  };
  return {
    /** What the head asks for: module scripts and module preloads, in order. */
    code: () =>
      [...head.querySelectorAll('script[type="module"], link[rel="modulepreload"]')].map((e) => ({
        tag: e.tagName.toLowerCase(),
        url: e.getAttribute('src') ?? e.getAttribute('href'),
        crossorigin: e.getAttribute('crossorigin'),
        fetchpriority: e.getAttribute('fetchpriority'),
      })),
    /** The main thread ends a frame, then runs what was left for right after it. */
    endFrame: () => {
      for (const frame of frames.splice(0)) frame();
      run(0);
    },
    /** The browser reports a paint (`first-paint`, `first-contentful-paint`). */
    report: (name: string) => {
      let connected = true;
      for (const callback of [...observers]) {
        if (!connected) break;
        callback(
          { getEntriesByName: (n) => (n === name ? [{ name }] : []) },
          { disconnect: () => (connected = false) },
        );
      }
      if (!connected) observers.length = 0;
    },
    /** Time passes. */
    wait: (ms: number) => run(ms),
  };
}

const ASKED = ['/assets/jsx-runtime-abc.js', '/assets/api-client-abc.js', '/assets/index-abc.js'];

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

  it('asks for nothing before the first contentful paint is reported, then for the chunks and the entry, low priority', () => {
    const page = open(codeAfterFirstPaint(BUILT));
    page.endFrame();
    page.report('first-paint');
    expect(page.code()).toEqual([]);
    page.report('first-contentful-paint');
    const asked = (tag: string, url: string) => ({ tag, url, crossorigin: '', fetchpriority: 'low' });
    expect(page.code()).toEqual([
      asked('link', '/assets/jsx-runtime-abc.js'),
      asked('link', '/assets/api-client-abc.js'),
      asked('script', '/assets/index-abc.js'),
    ]);
    // Once only, whatever else comes later.
    page.report('first-contentful-paint');
    page.endFrame();
    page.wait(3_000);
    expect(page.code()).toHaveLength(3);
  });

  it('without paint timing, asks once the first frame has ended', () => {
    const page = open(codeAfterFirstPaint(BUILT), { paintTiming: false });
    expect(page.code()).toEqual([]);
    page.endFrame();
    expect(page.code().map((c) => c.url)).toEqual(ASKED);
  });

  it('asks at once in a hidden tab, which paints nothing', () => {
    const page = open(codeAfterFirstPaint(BUILT), { visibility: 'hidden' });
    expect(page.code().map((c) => c.url)).toEqual(ASKED);
  });

  it('asks after 3 s when no paint was reported', () => {
    const page = open(codeAfterFirstPaint(BUILT));
    page.endFrame();
    page.wait(2_999);
    expect(page.code()).toEqual([]);
    page.wait(3_000);
    expect(page.code().map((c) => c.url)).toEqual(ASKED);
  });

  it("gives the policy the script's own hash", () => {
    const hash = createHash('sha256').update(TAKE_OVER_SCRIPT).digest('base64');
    expect(TAKE_OVER_SCRIPT_HASH).toBe(`'sha256-${hash}'`);
  });
});
