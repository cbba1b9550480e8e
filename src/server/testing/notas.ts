import { createNotasRepository } from '#server/features/notas/notas.repository';
import type { WordpressNotasConfig } from '#server/platform/config/config';
import type { TestApp } from './test-app';

/** Notas from the WordPress site at `url`, with the defaults of the configuration unless overridden. */
export function wordpressNotas(url: string, overrides: Partial<WordpressNotasConfig> = {}): WordpressNotasConfig {
  return { source: 'wordpress', url, pageSize: 50, timeoutMs: 30_000, concurrency: 3, imageOrigins: [], ...overrides };
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
