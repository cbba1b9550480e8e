import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  applyBreakdownChange,
  applyTimelineChange,
  type Breakdown,
  type BreakdownChange,
  RESULTS_BREAKDOWN_EVENT,
  RESULTS_EVENT,
  RESULTS_HEARTBEAT_MS,
  RESULTS_PING_EVENT,
  RESULTS_TIMELINE_EVENT,
  type Results,
  type Timeline,
  type TimelineChange,
} from '#shared/features/results/results';
import { resultsKeys } from './get-results';

export const RESULTS_STREAM_URL = '/api/results/stream';

/** live: the stream feeds the page; connecting: not yet known; polling: no stream, the page asks itself. */
export type StreamStatus = 'connecting' | 'live' | 'polling';

export interface ResultsStreamOptions {
  /** First wait before opening a stream again after it failed for good; doubles up to 30 s. */
  reconnectMs?: number;
  /** A stream silent for longer (no totals, no ping) is taken as dead and replaced. */
  silenceMs?: number;
}

/**
 * Keeps the results in the query cache up to date from the server's event stream, and says whether it
 * is live. The browser's EventSource already reconnects after a dropped connection; this also starts
 * over when the server refused it (restart, proxy error), when it went silent, or when the network
 * comes back. While not live, the page falls back to polling. The per-municipality table (and the map
 * drawn from it) and the day's timeline come on the same stream, whole at first and then what changed
 * (decision 087): nothing is asked for again on a vote, and none lags the cards.
 */
export function useResultsStream({
  reconnectMs = 2_000,
  silenceMs = RESULTS_HEARTBEAT_MS * 2 + 5_000,
}: ResultsStreamOptions = {}): { status: StreamStatus; lastEventAt: number | null } {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<StreamStatus>(() =>
    typeof EventSource === 'undefined' ? 'polling' : 'connecting',
  );
  const [lastEventAt, setLastEventAt] = useState<number | null>(null);

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let lastHeard = Date.now();
    let stopped = false;
    /**
     * Applies one change of the map's or the timeline's figures to what the page keeps. A whole answer
     * replaces it, and an answer on its way from before the stream (the page's own request) is dropped.
     */
    const apply = <T, C extends { whole: boolean }>(
      queryKey: readonly unknown[],
      data: string,
      merge: (kept: T | undefined, change: C) => T | undefined,
    ) => {
      const change = JSON.parse(data) as C;
      if (change.whole) void queryClient.cancelQueries({ queryKey });
      const next = merge(queryClient.getQueryData<T>(queryKey), change);
      // A change with nothing whole to apply it to (cannot happen after a stream's first events): ask.
      if (next === undefined) void queryClient.invalidateQueries({ queryKey });
      else queryClient.setQueryData<T>(queryKey, next);
    };

    const heard = () => {
      lastHeard = Date.now();
      setLastEventAt(lastHeard);
    };

    const scheduleReconnect = () => {
      if (stopped || retryTimer) return;
      const wait = Math.min(30_000, reconnectMs * 2 ** Math.min(failures, 4));
      failures += 1;
      retryTimer = setTimeout(() => {
        retryTimer = undefined;
        connect();
      }, wait);
    };

    function connect() {
      source?.close();
      lastHeard = Date.now();
      const es = new EventSource(RESULTS_STREAM_URL);
      source = es;
      es.addEventListener(RESULTS_EVENT, (event) => {
        try {
          queryClient.setQueryData<Results>(resultsKeys.current, JSON.parse((event as MessageEvent<string>).data));
        } catch {
          return;
        }
        failures = 0;
        heard();
        setStatus('live');
      });
      es.addEventListener(RESULTS_BREAKDOWN_EVENT, (event) => {
        try {
          apply<Breakdown, BreakdownChange>(
            resultsKeys.breakdown,
            (event as MessageEvent<string>).data,
            applyBreakdownChange,
          );
        } catch {
          // A frame that does not parse is skipped; the next whole one (a reconnect) puts things right.
        }
      });
      es.addEventListener(RESULTS_TIMELINE_EVENT, (event) => {
        try {
          apply<Timeline, TimelineChange>(
            resultsKeys.timeline,
            (event as MessageEvent<string>).data,
            applyTimelineChange,
          );
        } catch {
          // As above.
        }
      });
      es.addEventListener(RESULTS_PING_EVENT, heard);
      es.onerror = () => {
        if (source !== es) return;
        // Still CONNECTING: the browser retries by itself; meanwhile the page polls.
        setStatus('polling');
        if (es.readyState === EventSource.CLOSED) scheduleReconnect();
      };
    }

    const watchdog = setInterval(
      () => {
        if (Date.now() - lastHeard > silenceMs) {
          setStatus('polling');
          source?.close();
          scheduleReconnect();
        }
      },
      Math.min(5_000, silenceMs),
    );

    const reconnectNow = () => {
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = undefined;
      failures = 0;
      connect();
    };
    window.addEventListener('online', reconnectNow);
    connect();

    return () => {
      stopped = true;
      clearInterval(watchdog);
      if (retryTimer) clearTimeout(retryTimer);
      window.removeEventListener('online', reconnectNow);
      source?.close();
    };
  }, [queryClient, reconnectMs, silenceMs]);

  return { status, lastEventAt };
}
