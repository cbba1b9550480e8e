/** Airtable's documented limit: five requests per second per base. */
export const AIRTABLE_REQUESTS_PER_SECOND = 5;

export interface RateLimiter {
  /** Resolves when one more request may start now; callers go in the order they asked. */
  take(): Promise<void>;
}

export interface RateLimiterOptions {
  limit?: number;
  windowMs?: number;
  /** Kept on top of the window: the other side counts arrivals, and a request may arrive late. */
  marginMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A bucket of `limit` tokens where each token comes back `windowMs` (plus a margin) after it was
 * spent. However the requests are spread, no window of `windowMs` ever holds more than `limit` of
 * them, which is how Airtable counts; a plain refilling bucket would allow a burst of five followed by
 * one more 200 ms later.
 */
export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const limit = options.limit ?? AIRTABLE_REQUESTS_PER_SECOND;
  const windowMs = options.windowMs ?? 1_000;
  const marginMs = options.marginMs ?? 50;
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? realSleep;
  /** When each of the last `limit` tokens was spent, oldest first. */
  const spent: number[] = [];
  let queue: Promise<void> = Promise.resolve();

  return {
    take() {
      const turn = queue.then(async () => {
        if (spent.length >= limit) {
          const wait = (spent[0] as number) + windowMs + marginMs - now();
          if (wait > 0) await sleep(wait);
          spent.shift();
        }
        spent.push(now());
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
