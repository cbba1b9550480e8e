import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { createNotasRepository } from './notas.repository';
import { type NotaHtml, notaHtml } from './notas.sanitize';

/** The notas' writes that other parts of the server make (the demo data). */
export function createNotasService(db: Kysely<Database>, html: NotaHtml = notaHtml) {
  const repo = createNotasRepository(db, html);
  return {
    /** Adds one post, its HTML sanitised (on the sanitiser's thread); its id. */
    add: (post: { title: string; html: string; publishedAt: string | null }, now: Date): Promise<number> =>
      repo.insert(post, now),
  };
}
