import http from 'node:http';
import type { Results } from '#shared/features/results/results';

export interface SseEvent {
  event: string;
  data: string;
  /** When the event arrived (ms since the epoch). */
  at: number;
}

export interface SseConnection {
  status: number;
  headers: http.IncomingHttpHeaders;
  events: SseEvent[];
  /** Resolves with the first event (already received or still to come) that matches, or rejects after `timeoutMs`. */
  next(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * How long a test waits for a vote to show on a live stream, and the most it may take. The live loop
 * reads the counters every 250 ms (SQLite) or hears of a vote at once (PostgreSQL, NOTIFY); how soon a
 * vote shows (goal: under a second) is measured by `npm run bench -- results`, not by tests. 3 s leaves
 * a busy machine room and stays under the 5 s safety poll on PostgreSQL: a notification that never
 * came still fails.
 */
export const LIVE_UPDATE_MS = 3_000;

/** A minimal event-stream client for tests: connects, parses events, keeps them all. */
export function openSse(url: string, cookie?: string): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      { headers: { accept: 'text/event-stream', ...(cookie ? { cookie } : {}) } },
      (res) => {
        const events: SseEvent[] = [];
        const waiters = new Set<{ match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void; from: number }>();
        let buffer = '';
        let endResolve: () => void = () => {};
        const ended = new Promise<void>((r) => {
          endResolve = r;
        });
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let cut = buffer.indexOf('\n\n'); cut !== -1; cut = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            let event = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data.push(line.slice(6));
            }
            if (data.length === 0) continue;
            const e = { event, data: data.join('\n'), at: Date.now() };
            events.push(e);
            for (const w of waiters) {
              if (w.match(e)) {
                waiters.delete(w);
                w.resolve(e);
              }
            }
          }
        });
        res.on('end', () => endResolve());
        res.on('close', () => endResolve());
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          events,
          ended,
          next(match, timeoutMs = 2_000) {
            const found = events.find(match);
            if (found) return Promise.resolve(found);
            return new Promise((resolveEvent, rejectEvent) => {
              const waiter = {
                match,
                from: events.length,
                resolve: (e: SseEvent) => {
                  clearTimeout(timer);
                  resolveEvent(e);
                },
              };
              const timer = setTimeout(() => {
                waiters.delete(waiter);
                rejectEvent(new Error(`no matching event within ${timeoutMs} ms`));
              }, timeoutMs);
              waiters.add(waiter);
            });
          },
          close() {
            request.destroy();
          },
        });
      },
    );
    request.on('error', reject);
  });
}

/** The totals an event carries, when it is a results event. */
export function resultsOf(e: SseEvent): Results | undefined {
  return e.event === 'resultados' ? (JSON.parse(e.data) as Results) : undefined;
}

/** Votes of one candidate in a results event (or -1 when it is not one). */
export const votesIn = (e: SseEvent, code: string) =>
  resultsOf(e)?.candidates.find((c) => c.code === code)?.votes ?? -1;
