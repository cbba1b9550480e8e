import type { Nota } from '#shared/features/notas/notas';
import { formatShortDate } from '#shared/platform/format';
import { messages } from '#shared/platform/messages';

/**
 * One nota. 'Ver más...' is a native disclosure (<details>): it opens and closes without JavaScript, so
 * the page the server renders can be read in full before the app has loaded, or without it.
 */
export function NotaCard({ nota }: { nota: Nota }) {
  return (
    <article className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm" data-testid="nota">
      {nota.imageUrl && (
        <img
          src={nota.imageUrl}
          alt={nota.imageAlt ?? ''}
          loading="lazy"
          className="mb-3 aspect-[2/1] w-full rounded-lg object-cover"
        />
      )}
      <h2 className="text-xl font-bold text-stone-900">{nota.title}</h2>
      <p className="mt-1 text-sm text-stone-600">
        <time dateTime={nota.publishedAt}>{formatShortDate(nota.publishedAt)}</time>
      </p>
      <details className="group mt-3">
        {/* The label follows the open state through CSS, so it is right before and without JavaScript. */}
        <summary className="w-fit cursor-pointer list-none font-semibold text-brand underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand [&::-webkit-details-marker]:hidden">
          <span className="group-open:hidden">{messages.notas.seeMore}</span>
          <span className="hidden group-open:inline">{messages.notas.seeLess}</span>
        </summary>
        {/* The server sanitises this HTML when it is stored and again when it is served. */}
        <div
          className="nota-content mt-2 text-stone-800"
          data-testid="nota-content"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server (sanitize-html)
          dangerouslySetInnerHTML={{ __html: nota.contentHtml }}
        />
      </details>
    </article>
  );
}
