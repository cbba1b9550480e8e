import { createNotasRepository } from '#server/features/notas/notas.repository';
import type { TestApp } from './test-app';

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
