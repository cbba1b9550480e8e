import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { PhotoKind } from '#shared/platform/constants';
import type { ProcedureRecord } from '#shared/platform/records';
import { RecordCard } from './record-card';

export interface RecordListProps {
  slug: string;
  records: ProcedureRecord[];
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => void;
  onVote: (record: ProcedureRecord) => void;
  onUpload: (record: ProcedureRecord, kind: PhotoKind, file: File) => void;
  canReplacePhotos: boolean;
  /** Whose items on the phone the cards show. */
  viewer: string | null;
  /** The day has closed: the cards offer nothing new. */
  closed?: boolean;
}

/** Rough height of a card before it is measured (phone layout). */
const ESTIMATED_CARD_PX = 200;
/** Start loading the next page this many cards before the end. */
const PREFETCH_CARDS = 15;

/**
 * The records, windowed: only the cards near the screen exist in the page, so thousands of records
 * scroll smoothly on a modest phone. Pages of 100 load as the end comes near (and with the button).
 */
export function RecordList({
  slug,
  records,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  onVote,
  onUpload,
  canReplacePhotos,
  viewer,
  closed = false,
}: RecordListProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);

  // The list starts below the title, progress and search: the window virtualizer needs that offset.
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const top = Math.round(el.getBoundingClientRect().top + window.scrollY);
    if (top !== scrollMargin) setScrollMargin(top);
  });

  const virtualizer = useWindowVirtualizer({
    count: records.length,
    estimateSize: () => ESTIMATED_CARD_PX,
    overscan: 6,
    scrollMargin,
    getItemKey: (index) => records[index]?.id ?? index,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= records.length - PREFETCH_CARDS) fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, lastIndex, records.length, fetchNextPage]);

  return (
    <>
      <ul
        ref={listRef}
        aria-label="Trámites"
        className="relative"
        style={{ height: virtualizer.getTotalSize() }}
        aria-busy={isFetchingNextPage}
      >
        {items.map((item) => {
          const record = records[item.index];
          if (!record) return null;
          return (
            <li
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              aria-posinset={item.index + 1}
              aria-setsize={hasNextPage ? -1 : records.length}
              className="absolute top-0 left-0 w-full pb-3"
              style={{ transform: `translateY(${item.start - scrollMargin}px)` }}
            >
              <RecordCard
                slug={slug}
                record={record}
                onVote={onVote}
                onUpload={onUpload}
                canReplacePhotos={canReplacePhotos}
                viewer={viewer}
                closed={closed}
              />
            </li>
          );
        })}
      </ul>
      {hasNextPage && (
        <div className="mt-2 flex justify-center">
          <button
            type="button"
            onClick={fetchNextPage}
            disabled={isFetchingNextPage}
            className="rounded-lg border-2 border-brand px-5 py-3 font-semibold text-brand hover:bg-brand hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand disabled:border-stone-400 disabled:text-stone-700"
          >
            {isFetchingNextPage ? 'Cargando…' : 'Cargar más trámites'}
          </button>
        </div>
      )}
    </>
  );
}
