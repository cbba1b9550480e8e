import fs from 'node:fs';
import { vi } from 'vitest';

/**
 * Makes the next file opens of write streams reach the disk late, as on a busy machine: only once
 * `answer` has settled (the operation under test answered its caller), or after 50 ms when that answer
 * itself waits for the file. `opened()` resolves once every delayed open is done, so a test can then
 * see on the disk whatever a late open left there.
 */
export function openFilesLate(): {
  after(answer: Promise<unknown>): void;
  opened(): Promise<void>;
  restore(): void;
} {
  let answered: Promise<unknown> = new Promise(() => {});
  const opens: Promise<void>[] = [];
  const open = fs.open as (...args: unknown[]) => void;
  const spy = vi.spyOn(fs, 'open').mockImplementation(((...args: unknown[]) => {
    const callback = args.pop() as (...result: unknown[]) => void;
    const late = Promise.race([answered, new Promise((wait) => setTimeout(wait, 50))]);
    opens.push(
      new Promise<void>((resolve) => {
        void late.then(() =>
          open(...args, (...result: unknown[]) => {
            callback(...result);
            resolve();
          }),
        );
      }),
    );
  }) as unknown as typeof fs.open);
  return {
    after(answer) {
      answered = answer.catch(() => undefined);
    },
    async opened() {
      await Promise.all(opens);
    },
    restore: () => spy.mockRestore(),
  };
}
