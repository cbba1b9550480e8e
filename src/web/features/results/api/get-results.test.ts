import { describe, expect, it } from 'vitest';
import { getResultsQueryOptions } from './get-results';

describe('getResultsQueryOptions', () => {
  it('asks every 5 seconds while the live stream is down, also in a background tab', () => {
    const options = getResultsQueryOptions({ live: false });
    expect(options.refetchInterval).toBe(5_000);
    expect(options.refetchIntervalInBackground).toBe(true);
    expect(options.staleTime).toBe(0);
  });

  it('asks nothing while the live stream feeds the totals', () => {
    const options = getResultsQueryOptions({ live: true });
    expect(options.refetchInterval).toBe(false);
    expect(options.staleTime).toBe(Number.POSITIVE_INFINITY);
    expect(options.refetchOnWindowFocus).toBe(false);
  });
});
