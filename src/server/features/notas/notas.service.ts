import type { Kysely } from 'kysely';
import { type Change, runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, NotFound } from '#server/platform/http/errors';
import type { Actor } from '#server/platform/session/identity';
import { type NotaAdmin, notasAdminMessages } from '#shared/features/notas/notas.admin';
import { createNotasRepository, type NotaAdminRow, publishedNotasAnswers } from './notas.repository';
import { type NotaHtml, NotaHtmlRefused, notaHtml, type PreparedNota, prepareNota } from './notas.sanitize';

/** The Notas page's allow-list also opens its editor (admins are its base group). */
export const NOTAS_DEPARTMENT = 'notas';

export const presentNotaSummary = (r: Omit<NotaAdminRow, 'content_html'>): Omit<NotaAdmin, 'contentHtml'> => ({
  id: r.id,
  title: r.title,
  status: r.published_at ? 'publicada' : 'borrador',
  publishedAt: r.published_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const present = (r: NotaAdminRow): NotaAdmin => ({ ...presentNotaSummary(r), contentHtml: r.content_html });

const refusalMessage = (error: NotaHtmlRefused): string => {
  switch (error.reason) {
    case 'depth':
      return notasAdminMessages.tooDeep(error.limits.maxDepth);
    case 'elements':
      return notasAdminMessages.tooManyElements(error.limits.maxElements);
    case 'size':
      return notasAdminMessages.contentTooLong;
    case 'time':
      return notasAdminMessages.tooComplex;
  }
};

/** What the editor sent, sanitised and checked before any transaction starts; a 400 in Spanish otherwise. */
async function prepareOrRefuse(html: NotaHtml, post: { title: string; html: string }): Promise<PreparedNota> {
  let nota: PreparedNota;
  try {
    nota = await prepareNota(html, post);
  } catch (error) {
    if (error instanceof NotaHtmlRefused) throw BadRequest(refusalMessage(error));
    throw error;
  }
  if (!nota.hasContent) throw BadRequest(notasAdminMessages.contentRequired);
  if (!nota.title) throw BadRequest(notasAdminMessages.titleRequired);
  return nota;
}

/**
 * The notas' use cases (docs/decisions/069): each change is one transaction with its audit row, after
 * which the public list's kept answers are forgotten. HTML is sanitised on the server before it is
 * stored, on a worker thread with bounds and a time budget (notas.sanitize.ts), before the transaction.
 */
export function createNotasService(db: Kysely<Database>, clock: () => Date, html: NotaHtml = notaHtml) {
  const repo = createNotasRepository(db, html);
  const change = <T>(work: (change: Change) => Promise<T>) => runChange(db, work, { forget: [publishedNotasAnswers] });
  const auditRow = (actor: Actor, action: string, nota: NotaAdmin, now: Date) => ({
    actorEmail: actor.email,
    departmentSlug: NOTAS_DEPARTMENT,
    ip: actor.ip,
    action,
    target: `nota:${nota.id}`,
    details: { title: nota.title, status: nota.status },
    at: now,
  });

  return {
    /** Every post, drafts included, most recently changed first. */
    async listAdmin(options: Parameters<typeof repo.listAdmin>[0]) {
      const { rows, total } = await repo.listAdmin(options);
      return { items: rows.map((r) => ({ ...presentNotaSummary(r), excerpt: r.excerpt })), total };
    },

    /** One post with its HTML, for the editor; 404 when there is none. */
    async find(id: number): Promise<NotaAdmin> {
      const row = await repo.findById(id);
      if (!row) throw NotFound(notasAdminMessages.notaNotFound);
      return present(row);
    },

    /**
     * A new post, as a draft or published now; `publishedAt` dates a published one otherwise (the demo's
     * notas, one a day back).
     */
    async create(
      input: { title: string; html: string; publish: boolean; publishedAt?: string },
      actor: Actor,
    ): Promise<NotaAdmin> {
      const prepared = await prepareOrRefuse(html, input);
      const now = clock();
      const publishedAt = input.publish ? (input.publishedAt ?? now.toISOString()) : null;
      return change(async ({ trx, audit }) => {
        const created = present(await createNotasRepository(trx, html).create(prepared, publishedAt, now));
        await audit(auditRow(actor, 'nota.create', created, now));
        return created;
      });
    },

    /** New title and content; the post stays published or a draft. */
    async update(id: number, input: { title: string; html: string }, actor: Actor): Promise<NotaAdmin> {
      const prepared = await prepareOrRefuse(html, input);
      const now = clock();
      return change(async ({ trx, audit }) => {
        const row = await createNotasRepository(trx, html).updateContent(id, prepared, now);
        if (!row) throw NotFound(notasAdminMessages.notaNotFound);
        const updated = present(row);
        await audit(auditRow(actor, 'nota.update', updated, now));
        return updated;
      });
    },

    /** Publishes a post (a published one keeps its date: it is not "news" again) or turns it back into a draft. */
    setPublished(id: number, publish: boolean, actor: Actor): Promise<NotaAdmin> {
      const now = clock();
      return change(async ({ trx, audit }) => {
        const tx = createNotasRepository(trx, html);
        const current = await tx.findById(id);
        if (!current) throw NotFound(notasAdminMessages.notaNotFound);
        const publishedAt = publish ? (current.published_at ?? now.toISOString()) : null;
        if (publishedAt === current.published_at) return present(current);
        const row = await tx.setPublishedAt(current.id, publishedAt, now);
        if (!row) throw NotFound(notasAdminMessages.notaNotFound);
        const changed = present(row);
        await audit(auditRow(actor, publish ? 'nota.publish' : 'nota.unpublish', changed, now));
        return changed;
      });
    },

    /** Deletes a post (the audit row keeps its title); 404 when there is none. */
    remove(id: number, actor: Actor): Promise<void> {
      const now = clock();
      return change(async ({ trx, audit }) => {
        const row = await createNotasRepository(trx, html).remove(id);
        if (!row) throw NotFound(notasAdminMessages.notaNotFound);
        await audit(auditRow(actor, 'nota.delete', present(row), now));
      });
    },

    /** How many posts there are (the demo loads its own only where there are none). */
    count: (): Promise<number> => repo.count(),
  };
}
export type NotasService = ReturnType<typeof createNotasService>;
