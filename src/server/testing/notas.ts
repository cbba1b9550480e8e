import { createNotasRepository } from '#server/features/notas/notas.repository';
import type { NotaHtmlTimers } from '#server/features/notas/notas.sanitize';
import type { WordpressNotasConfig } from '#server/platform/config/config';
import type { NotasPage } from '#shared/features/notas/notas';
import type { TestApp } from './test-app';

/** Notas from the WordPress site at `url`, with the defaults of the configuration unless overridden. */
export function wordpressNotas(url: string, overrides: Partial<WordpressNotasConfig> = {}): WordpressNotasConfig {
  return { source: 'wordpress', url, pageSize: 50, timeoutMs: 30_000, concurrency: 3, imageOrigins: [], ...overrides };
}

/**
 * Asks GET /api/notas until the app is done with its first read of WordPress (state no longer
 * `loading`), and gives that answer. The read runs in the background: a visitor never waits for it.
 */
export async function whenNotasRead(t: TestApp, url = '/api/notas'): Promise<NotasPage> {
  for (;;) {
    const body = (await t.app.inject({ url })).json() as NotasPage;
    if (body.state !== 'loading') return body;
    // Real sockets to the stand-in: let them turn (a pause, not a limit; the test's timeout is the backstop).
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Data builders for the notas tests (not a test file itself). */
export async function addNota(
  t: TestApp,
  nota: { title?: string; html?: string; published?: boolean } = {},
): Promise<number> {
  return createNotasRepository(t.db.kysely).insert(
    {
      title: nota.title ?? 'Nota de prueba',
      html: nota.html ?? '<p>Texto de prueba.</p>',
      publishedAt: nota.published ? new Date().toISOString() : null,
    },
    new Date(),
  );
}

/**
 * Timers for the nota sanitiser that only the test fires: its time budget never runs out by itself, so
 * a test decides, whatever the machine's speed, when a post has taken too long.
 */
export function manualNotaTimers() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  const waiting: { ms: number; found: (id: number) => void }[] = [];
  let next = 1;
  const timers: NotaHtmlTimers = {
    setTimeout(callback, ms) {
      const id = next++;
      pending.set(id, { callback, ms });
      for (const [i, w] of waiting.entries()) {
        if (w.ms !== ms) continue;
        waiting.splice(i, 1);
        w.found(id);
        break;
      }
      return id;
    },
    clearTimeout(id) {
      pending.delete(id as number);
    },
  };
  return {
    timers,
    /**
     * Waits until a timer of `ms` is pending (the budget is set when the thread has a post) and gives
     * what runs it out.
     */
    async whenSet(ms: number): Promise<{ runOut(): void }> {
      const found = [...pending].find(([, t]) => t.ms === ms)?.[0];
      const id = found ?? (await new Promise<number>((resolve) => waiting.push({ ms, found: resolve })));
      return {
        runOut() {
          const timer = pending.get(id);
          if (!timer) throw new Error('this timer is no longer pending: the post was already answered');
          pending.delete(id);
          timer.callback();
        },
      };
    },
    /** Whether a timer of `ms` is pending. */
    isSet: (ms: number) => [...pending.values()].some((t) => t.ms === ms),
  };
}
