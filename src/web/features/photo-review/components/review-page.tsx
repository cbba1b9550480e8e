import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  photoReviewMessages,
  REVIEW_VERDICT_KEYS,
  REVIEW_VERDICT_LABELS,
  REVIEW_VERDICTS,
  type ReviewItem,
  type ReviewVerdict,
} from '#shared/features/photo-review/photo-review';
import type { PhotoKind } from '#shared/platform/constants';
import { dayAndTime } from '#shared/platform/format';
import { PHOTO_KIND_LABELS } from '#shared/platform/records';
import { ApiError } from '#web/platform/lib/api-client';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { badgeClass, buttonClass } from '#web/platform/ui/back-office';
import { DepartmentSelect } from '#web/platform/ui/fields';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { REVIEW_QUEUE_KEY, useReviewQueue } from '../api/get-review-queue';
import { useReviewRecord } from '../api/review-record';
import { ReviewersAdmin } from './reviewers-admin';

/*
 * Revisión (decision 134): the oldest validated record with photos to review, its vote and its three
 * ballots side by side; per photo 'Conforme', 'Ilegible' or 'No corresponde' with an optional note. By
 * keyboard: C, I or N marks the chosen photo and moves to the next, 1 to 3 choose a photo, Intro saves;
 * a record takes four keys. The next record's photos are fetched while this one is looked at.
 */

const verdictStyle: Record<ReviewVerdict, { on: string; off: string }> = {
  conforme: {
    on: 'border-emerald-700 bg-emerald-700 text-white',
    off: 'border-emerald-700 bg-white text-emerald-900 hover:bg-emerald-50',
  },
  ilegible: { on: 'border-red-700 bg-red-700 text-white', off: 'border-red-700 bg-white text-red-900 hover:bg-red-50' },
  no_corresponde: {
    on: 'border-amber-800 bg-amber-800 text-white',
    off: 'border-amber-800 bg-white text-amber-950 hover:bg-amber-50',
  },
};

/** Whether a key press belongs to a field being typed in (no shortcut there). */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/** Fetches a record's ballots before it is shown, so the next one appears at once. */
function prefetchPhotos(item: ReviewItem | undefined) {
  for (const photo of item?.photos ?? []) {
    const image = new Image();
    image.src = photo.url;
  }
}

export function ReviewPage({ isAdmin }: { isAdmin: boolean }) {
  useDocumentTitle(photoReviewMessages.title);
  const [municipio, setMunicipio] = useState('');
  const queue = useReviewQueue(municipio || undefined);
  const queryClient = useQueryClient();
  // Records done (or skipped) here, hidden until the queue is asked again.
  const [done, setDone] = useState<ReadonlySet<number>>(new Set());
  const [notice, setNotice] = useState<{ text: string; tone: 'ok' | 'error' } | null>(null);

  const items = useMemo(() => (queue.data?.items ?? []).filter((i) => !done.has(i.recordId)), [queue.data, done]);
  const current = items[0];
  const next = items[1];
  useEffect(() => prefetchPhotos(next), [next]);

  // Running low: the next page, asked for before the last record is done.
  const refetch = queue.refetch;
  const fetching = queue.isFetching;
  useEffect(() => {
    if (queue.data && items.length <= 2 && queue.data.items.length > items.length && !fetching) {
      void refetch().then(() => setDone(new Set()));
    }
  }, [items.length, queue.data, refetch, fetching]);

  const moveOn = useCallback((recordId: number) => setDone((d) => new Set(d).add(recordId)), []);

  return (
    <main id="contenido" className="mx-auto w-full max-w-[1800px] px-4 pt-6 pb-16">
      <h1 className="text-2xl font-bold text-stone-900">{photoReviewMessages.title}</h1>
      <p className="mt-1 text-stone-700">
        Revisa cada foto de boleta: <strong>Conforme</strong>, <strong>Ilegible</strong> o{' '}
        <strong>No corresponde</strong>. Las dos últimas piden otra foto al teléfono de quien la tomó.
      </p>
      <div className="mt-4 flex flex-wrap items-end gap-4">
        <div className="w-full sm:w-72">
          <DepartmentSelect
            label="Municipio"
            departments={queue.data?.municipalities ?? []}
            value={municipio}
            onChange={(e) => {
              setMunicipio(e.target.value);
              setDone(new Set());
            }}
          />
        </div>
        {queue.data && (
          <p className="pb-2 text-stone-800" data-testid="por-revisar">
            Por revisar: <strong className="tabular-nums">{queue.data.waiting}</strong>
          </p>
        )}
      </div>
      <p className="sr-only" role="status" aria-live="polite">
        {notice?.text ?? ''}
      </p>
      {notice && (
        <p
          className={`mt-3 rounded-lg px-3 py-2 ${notice.tone === 'ok' ? 'bg-emerald-50 text-emerald-900' : 'bg-red-50 text-red-900'}`}
          aria-hidden="true"
        >
          {notice.text}
        </p>
      )}
      <section aria-label="Trámite por revisar" className="mt-4">
        {queue.isPending ? (
          <Spinner />
        ) : queue.isError ? (
          <ErrorNotice message={queue.error.message} onRetry={() => queue.refetch()} />
        ) : current ? (
          <RecordReview
            key={current.recordId}
            item={current}
            onDone={(text, tone) => {
              setNotice({ text, tone });
              moveOn(current.recordId);
              void queryClient.invalidateQueries({ queryKey: REVIEW_QUEUE_KEY, refetchType: 'none' });
            }}
            onSkip={() => moveOn(current.recordId)}
          />
        ) : queue.isFetching ? (
          <Spinner />
        ) : (
          <div className="rounded-lg border border-stone-200 bg-white p-6 text-stone-800">
            <p>{photoReviewMessages.empty}</p>
            <button
              type="button"
              className={`${buttonClass.secondary} mt-3`}
              onClick={() => void queue.refetch().then(() => setDone(new Set()))}
            >
              Buscar de nuevo
            </button>
          </div>
        )}
      </section>
      {isAdmin && <ReviewersAdmin />}
    </main>
  );
}

function RecordReview({
  item,
  onDone,
  onSkip,
}: {
  item: ReviewItem;
  onDone: (text: string, tone: 'ok' | 'error') => void;
  onSkip: () => void;
}) {
  const pending = item.photos.filter((p) => p.verdict === null);
  const [verdicts, setVerdicts] = useState<Partial<Record<PhotoKind, ReviewVerdict>>>({});
  const [notes, setNotes] = useState<Partial<Record<PhotoKind, string>>>({});
  const [active, setActive] = useState(0);
  const review = useReviewRecord();
  const saveRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const complete = pending.length > 0 && pending.every((p) => verdicts[p.kind] !== undefined);

  // A new record: the eye (and a screen reader) starts at its heading.
  useEffect(() => headingRef.current?.focus(), []);

  const mark = useCallback(
    (kind: PhotoKind, verdict: ReviewVerdict) => {
      setVerdicts((v) => {
        const after = { ...v, [kind]: verdict };
        const nextIndex = pending.findIndex((p) => after[p.kind] === undefined);
        if (nextIndex >= 0) setActive(nextIndex);
        else requestAnimationFrame(() => saveRef.current?.focus());
        return after;
      });
    },
    [pending],
  );

  const save = useCallback(() => {
    if (!complete || review.isPending) return;
    review.mutate(
      {
        recordId: item.recordId,
        input: {
          verdicts: pending.map((p) => ({
            kind: p.kind,
            photoId: p.id,
            verdict: verdicts[p.kind] as ReviewVerdict,
            ...(notes[p.kind]?.trim() ? { note: notes[p.kind]?.trim() } : {}),
          })),
        },
      },
      {
        onSuccess: (result) =>
          onDone(result.reopened ? `${result.message}: se pidió otra foto al teléfono` : result.message, 'ok'),
        onError: (error) => {
          // Another reviewer was first (409) or the record is gone: on to the next one, saying so.
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) onDone(error.message, 'error');
          else onDone(error.message, 'error');
        },
      },
    );
  }, [complete, review, item.recordId, pending, verdicts, notes, onDone]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
      const key = event.key.toLowerCase();
      const chosen = REVIEW_VERDICTS.find((v) => REVIEW_VERDICT_KEYS[v] === key);
      const photo = pending[active];
      if (chosen && photo) {
        event.preventDefault();
        mark(photo.kind, chosen);
      } else if (/^[1-3]$/.test(key) && pending[Number(key) - 1]) {
        event.preventDefault();
        setActive(Number(key) - 1);
      } else if (
        key === 'enter' &&
        !(event.target instanceof HTMLButtonElement || event.target instanceof HTMLAnchorElement)
      ) {
        event.preventDefault();
        save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [pending, active, mark, save]);

  const { day, time } = dayAndTime(item.votedAt);
  return (
    <article
      className="rounded-xl border border-stone-200 bg-white p-3 shadow-sm sm:p-4"
      data-testid="revision-tramite"
    >
      <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
        <h2 ref={headingRef} tabIndex={-1} className="text-lg font-bold text-stone-900 focus:outline-none">
          Trámite {item.recordId} · {item.municipality.title}
        </h2>
        <p className="text-stone-700">
          {item.ubch} · votó el {day} a las {time}
        </p>
        <p className="flex items-center gap-2" data-testid="voto">
          <span className="font-semibold text-stone-800">Voto:</span>
          {item.votes.length === 0 ? (
            <span className={badgeClass.neutral}>Ninguno</span>
          ) : (
            item.votes.map((code) => (
              <span key={code} className={badgeClass.brand}>
                {code}
              </span>
            ))
          )}
        </p>
      </div>
      <div className="mt-3 grid grid-cols-1 gap-4 md:grid-cols-3">
        {item.photos.map((photo) => {
          const index = pending.findIndex((p) => p.kind === photo.kind);
          return (
            <PhotoReview
              key={photo.kind}
              item={item}
              photo={photo}
              number={index + 1}
              active={index === active}
              verdict={verdicts[photo.kind]}
              note={notes[photo.kind] ?? ''}
              onVerdict={(v) => {
                if (index >= 0) setActive(index);
                mark(photo.kind, v);
              }}
              onNote={(text) => setNotes((n) => ({ ...n, [photo.kind]: text }))}
            />
          );
        })}
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button
          ref={saveRef}
          type="button"
          className={buttonClass.primary}
          disabled={!complete || review.isPending}
          aria-busy={review.isPending}
          onClick={save}
        >
          {review.isPending ? 'Guardando…' : 'Guardar y seguir'}
        </button>
        <button type="button" className={buttonClass.secondary} onClick={onSkip}>
          Saltar
        </button>
        <p className="text-sm text-stone-700" id="atajos">
          Teclas: <kbd>C</kbd> Conforme · <kbd>I</kbd> Ilegible · <kbd>N</kbd> No corresponde · <kbd>1</kbd>–
          <kbd>3</kbd> elegir foto · <kbd>Intro</kbd> guardar
        </p>
      </div>
    </article>
  );
}

function PhotoReview({
  item,
  photo,
  number,
  active,
  verdict,
  note,
  onVerdict,
  onNote,
}: {
  item: ReviewItem;
  photo: ReviewItem['photos'][number];
  number: number;
  active: boolean;
  verdict: ReviewVerdict | undefined;
  note: string;
  onVerdict: (verdict: ReviewVerdict) => void;
  onNote: (note: string) => void;
}) {
  const label = PHOTO_KIND_LABELS[photo.kind];
  const noteId = useId();
  const reviewed = photo.verdict !== null;
  return (
    <figure
      className={`flex flex-col gap-2 rounded-lg border-2 p-2 ${active && !reviewed ? 'border-brand' : 'border-stone-200'}`}
      data-testid={`foto-${photo.kind}`}
      aria-current={active && !reviewed ? 'true' : undefined}
    >
      <figcaption className="flex items-center justify-between gap-2 font-semibold text-stone-900">
        <span>
          {number > 0 && <span className="mr-1 text-stone-600">{number}.</span>}
          {label}
        </span>
        {reviewed && (
          <span className={badgeClass.ok}>Ya revisada: {REVIEW_VERDICT_LABELS[photo.verdict ?? 'conforme']}</span>
        )}
      </figcaption>
      <a href={photo.url} target="_blank" rel="noopener" className="block rounded bg-stone-100">
        <img
          src={photo.url}
          srcSet={`${photo.thumbUrl} 240w, ${photo.url} 2000w`}
          sizes="(min-width: 768px) 33vw, 100vw"
          alt={`Foto ${label} del trámite ${item.recordId}`}
          className="mx-auto max-h-[75vh] w-full object-contain"
          decoding="async"
        />
      </a>
      {!reviewed && (
        <>
          <fieldset className="flex flex-wrap gap-1.5">
            <legend className="sr-only">Revisión de la foto {label}</legend>
            {REVIEW_VERDICTS.map((v) => (
              <button
                key={v}
                type="button"
                aria-pressed={verdict === v}
                onClick={() => onVerdict(v)}
                className={`min-h-11 flex-auto whitespace-nowrap rounded-lg border-2 px-3 py-1 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand ${
                  verdict === v ? verdictStyle[v].on : verdictStyle[v].off
                }`}
              >
                {REVIEW_VERDICT_LABELS[v]}
              </button>
            ))}
          </fieldset>
          <label htmlFor={noteId} className="text-sm font-medium text-stone-800">
            Nota para {label} (opcional)
          </label>
          <textarea
            id={noteId}
            value={note}
            maxLength={500}
            rows={verdict && verdict !== 'conforme' ? 2 : 1}
            onChange={(e) => onNote(e.target.value)}
            className="block w-full rounded-lg border-2 border-stone-300 px-2 py-1 text-base text-stone-900 focus:border-brand focus:outline-none"
          />
        </>
      )}
    </figure>
  );
}
