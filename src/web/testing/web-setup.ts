import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { resetDeviceOutboxForTests } from '#web/features/records/outbox/device-outbox';
import { server } from './msw-server';

// findBy* and waitFor wait for the page to catch up: 10–100 ms here alone, several times that while the
// server suites keep the other core busy. Testing Library's 1 s default failed then; 5 s is the margin.
configure({ asyncUtilTimeout: 5_000 });

/*
 * A worker's test files share one window (isolate: false, vite.config.ts): what a test redefines of it (the
 * screen's width, the phone's connection, storage and clipboard) goes back after the test, as they were when
 * this file began, and no test's fake timers outlive it. This file runs again before each test file.
 */
const redefinable = [
  [window, 'innerWidth'],
  [navigator, 'connection'],
  [navigator, 'storage'],
  [navigator, 'clipboard'],
] as const;
const originals = redefinable.map(([target, key]) => Object.getOwnPropertyDescriptor(target, key));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  cleanup();
  vi.useRealTimers();
  redefinable.forEach(([target, key], i) => {
    const original = originals[i];
    if (original) Object.defineProperty(target, key, original);
    else Reflect.deleteProperty(target, key);
  });
  // Each test starts with an empty phone: no outbox, no saved lists, nothing in localStorage.
  resetDeviceOutboxForTests();
  globalThis.indexedDB = new IDBFactory();
  localStorage.clear();
});
afterAll(() => server.close());

// jsdom has no matchMedia; the layout asks it for the mobile breakpoint.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: window.innerWidth < 1100,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// jsdom has no layout: ranges cannot be measured and no point is over an element. ProseMirror (the notas
// editor) measures the caret to scroll it into view and looks where a click landed; nothing is enough here.
if (!Range.prototype.getClientRects) {
  Range.prototype.getClientRects = () => document.createElement('div').getClientRects();
  Range.prototype.getBoundingClientRect = () => document.createElement('div').getBoundingClientRect();
}
if (!document.elementFromPoint) document.elementFromPoint = () => null;
