import { useId, useState } from 'react';
import type { Nota } from '#shared/features/notas/notas';
import { formatShortDate } from '#shared/platform/format';
import { messages } from '#shared/platform/messages';

export function NotaCard({ nota }: { nota: Nota }) {
  const [open, setOpen] = useState(false);
  const contentId = useId();
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
      <button
        type="button"
        className="mt-3 font-semibold text-brand underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand"
        aria-expanded={open}
        aria-controls={contentId}
        onClick={() => setOpen((v) => !v)}
      >
        {open ? messages.notas.seeLess : messages.notas.seeMore}
      </button>
      {/* The server sanitises this HTML when it is stored and again when it is served. */}
      <div
        id={contentId}
        hidden={!open}
        className="nota-content mt-2 text-stone-800"
        data-testid="nota-content"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server (sanitize-html)
        dangerouslySetInnerHTML={{ __html: nota.contentHtml }}
      />
    </article>
  );
}
