import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { createNotasRepository } from './notas.repository';

/** The notas' writes that other parts of the server make (the demo data). */
export function createNotasService(db: Kysely<Database>) {
  const repo = createNotasRepository(db);
  return {
    /** Adds one post, its HTML sanitised; its id. */
    add: (post: { title: string; html: string; publishedAt: string | null }, now: Date): Promise<number> =>
      repo.insert(post, now),
  };
}
