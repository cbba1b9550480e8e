/** Airtable's documented limit: five requests per second per base. */
export const AIRTABLE_REQUESTS_PER_SECOND = 5;

export interface RateLimiter {
  /**
   * Resolves when one more request may start now, with the function to call once its answer (or its
   * failure) is in; callers go in the order they asked.
   */
  take(): Promise<() => void>;
}

export interface RateLimiterOptions {
  limit?: number;
  windowMs?: number;
  /** Kept on top of the window, for the clocks of both sides. */
  marginMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A bucket of `limit` tokens. A token is held while its request is on its way and comes back `windowMs`
 * (plus a margin) after the request's answer arrived, not after it was sent. Airtable counts requests
 * as they arrive, and a request arrives somewhere between being sent and being answered: counting from
 * the answer keeps any two requests that share a token more than a window apart at Airtable, however
 * late this process sends them (a busy event loop releases requests together) and however slow the
 * network is. It costs a little throughput (five requests per window plus one round trip).
 */
export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const limit = options.limit ?? AIRTABLE_REQUESTS_PER_SECOND;
  const windowMs = options.windowMs ?? 1_000;
  const marginMs = options.marginMs ?? 50;
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? realSleep;
  let inFlight = 0;
  /** When each token given back comes back into the bucket, soonest first. */
  const returning: number[] = [];
  /** Wakes the request waiting while every token is on its way. */
  let wake: (() => void) | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const release = () => {
    inFlight--;
    returning.push(now() + windowMs + marginMs);
    returning.sort((a, b) => a - b);
    wake?.();
  };

  return {
    take() {
      const turn = queue.then(async () => {
        for (;;) {
          while (returning.length > 0 && (returning[0] as number) <= now()) returning.shift();
          if (inFlight + returning.length < limit) break;
          if (returning.length > 0) await sleep((returning[0] as number) - now());
          else await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
        inFlight++;
        let done = false;
        return () => {
          if (done) return;
          done = true;
          release();
        };
      });
      queue = turn.catch(() => {});
      return turn;
    },
  };
}

const perBase = new Map<string, RateLimiter>();

/** The one bucket of a base in this process, whichever client or worker asks. */
export function baseRateLimiter(apiUrl: string, baseId: string): RateLimiter {
  const key = `${apiUrl}|${baseId}`;
  let limiter = perBase.get(key);
  if (!limiter) {
    limiter = createRateLimiter();
    perBase.set(key, limiter);
  }
  return limiter;
}
