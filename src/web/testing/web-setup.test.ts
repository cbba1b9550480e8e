import { describe, expect, it, vi } from 'vitest';

// The worker's next test file meets the window this file's tests leave (isolate: false): web-setup.ts puts
// back after each test what a test may redefine. These run in order: the second sees what the first changed.
describe('what a test changes of the window is put back after it', () => {
  const width = window.innerWidth;

  it('a test makes the screen a phone, takes the storage and the clipboard away, and stops the clock', () => {
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 390 });
    Object.defineProperty(navigator, 'storage', { configurable: true, value: undefined });
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: vi.fn() } });
    vi.useFakeTimers();
    expect([window.innerWidth, navigator.storage, vi.isFakeTimers()]).toEqual([390, undefined, true]);
  });

  it('the next test has them as they were', () => {
    expect(window.innerWidth).toBe(width);
    window.innerWidth = 1280;
    expect(window.innerWidth).toBe(1280);
    expect(Object.getOwnPropertyDescriptor(navigator, 'storage')).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(navigator, 'clipboard')).toBeUndefined();
    expect(vi.isFakeTimers()).toBe(false);
  });
});
