import { useResultsBreakdown } from '../api/get-results-breakdown';
import { ResultsMap } from './results-map';
import { ResultsTimeline } from './results-timeline';

export interface ResultsNightProps {
  /** The live stream feeds the page: the map's and the timeline's figures come on it (decision 087). */
  live: boolean;
  pollMs?: number | undefined;
  size?: 'page' | 'projector';
}

/** The night at a glance: the map of validated records and the day's timeline, side by side when there is room. */
export function ResultsNight({ live, pollMs, size = 'page' }: ResultsNightProps) {
  // The same query as the breakdown table: one request feeds both.
  const breakdown = useResultsBreakdown({ live, ...(pollMs ? { pollMs } : {}) });
  const projector = size === 'projector';
  return (
    <div
      className={
        projector
          ? 'grid items-start gap-[2vw] md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]'
          : 'mt-10 grid items-start gap-8 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] print:hidden'
      }
    >
      {breakdown.data ? <ResultsMap breakdown={breakdown.data} size={size} /> : <div />}
      <ResultsTimeline live={live} pollMs={pollMs} size={size} />
    </div>
  );
}
