import { afterEach, describe, expect, it, vi } from 'vitest';
import { appCodeOf, fetchAppWhenIdle, startApp } from './app-code';

const CODE = { module: '/assets/index-abc.js', chunks: ['/assets/react-abc.js', '/assets/query-abc.js'] };

/** What the head asks for: rel (or script) and address, in order. */
const asked = () =>
  [...document.head.querySelectorAll('link, script')].map((e) => [
    e.getAttribute('rel') ?? e.getAttribute('type'),
    e.getAttribute('href') ?? e.getAttribute('src'),
  ]);

function idleCallbacks(): (() => void)[] {
  const waiting: (() => void)[] = [];
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => waiting.push(callback));
  return waiting;
}

afterEach(() => {
  document.head.replaceChildren();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'connection');
});

describe("the app's code on a public page", () => {
  it('reads where the code is from the attributes the server wrote on the script', () => {
    const script = document.createElement('script');
    script.setAttribute('data-app-module', CODE.module);
    script.setAttribute('data-app-chunks', CODE.chunks.join(' '));
    expect(appCodeOf(script)).toEqual(CODE);
    expect(appCodeOf(document.createElement('script'))).toBeUndefined();
  });

  it('starts the app with its chunks preloaded, then its module script', () => {
    startApp(CODE);
    expect(asked()).toEqual([
      ['modulepreload', '/assets/react-abc.js'],
      ['modulepreload', '/assets/query-abc.js'],
      ['module', '/assets/index-abc.js'],
    ]);
  });

  it('downloads the code only once the browser is idle, as prefetches that run nothing', () => {
    const waiting = idleCallbacks();
    fetchAppWhenIdle(CODE);
    expect(asked()).toEqual([]);
    for (const callback of waiting.splice(0)) callback();
    expect(asked()).toEqual([
      ['prefetch', '/assets/index-abc.js'],
      ['prefetch', '/assets/react-abc.js'],
      ['prefetch', '/assets/query-abc.js'],
    ]);
  });

  it.each([
    ['the phone asks to save data', { saveData: true, effectiveType: '4g' }],
    ['the link is 2G', { saveData: false, effectiveType: '2g' }],
    ['the link is slower than 2G', { saveData: false, effectiveType: 'slow-2g' }],
  ])('downloads nothing when %s', (_, connection) => {
    Object.defineProperty(navigator, 'connection', { value: connection, configurable: true });
    const waiting = idleCallbacks();
    fetchAppWhenIdle(CODE);
    for (const callback of waiting.splice(0)) callback();
    expect(asked()).toEqual([]);
  });
});
