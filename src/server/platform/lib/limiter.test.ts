import { describe, expect, it } from 'vitest';
import { createLimiter } from './limiter';

describe('createLimiter', () => {
  it('never runs more than its limit at once and runs everything in arrival order', async () => {
    const limiter = createLimiter(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        limiter.run(async () => {
          running++;
          most = Math.max(most, running);
          order.push(i);
          await new Promise((r) => setTimeout(r, 5));
          running--;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('frees its place when a task fails', async () => {
    const limiter = createLimiter(1);
    await expect(limiter.run(async () => Promise.reject(new Error('mal')))).rejects.toThrow('mal');
    expect(await limiter.run(async () => 'bien')).toBe('bien');
    expect(limiter.active).toBe(0);
  });
});
