import { useEffect, useRef } from 'react';

/**
 * The server's live stream of result changes (decision 008). Its map event ('avance') comes after every
 * change of what a department shows: a vote, a correction, a photo stored or replaced (decision 087).
 */
export const LIVE_CHANGES_URL = '/api/results/stream';
export const LIVE_CHANGES_EVENT = 'avance';

/**
 * Calls `onChange` on each change of the departments' figures on the live stream (the first event, the
 * figures as they are when it opens, included), while `enabled` (the person may open it: the
 * Resultados list). The browser's EventSource reconnects by itself; a stream the server refuses is
 * closed for good, and the page keeps its own slower refresh. Resultados has its own fuller client
 * (stream-results.ts); this one is for pages that only need to know that something changed.
 */
export function useLiveChanges(enabled: boolean, onChange: () => void): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource(LIVE_CHANGES_URL);
    source.addEventListener(LIVE_CHANGES_EVENT, () => latest.current());
    return () => source.close();
  }, [enabled]);
}
