import { useSearchParams } from 'react-router';
import { resultsMessages } from '#shared/features/results/results';
import { formatCount } from '#shared/platform/format';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { useResults } from '../api/get-results';
import { type ResultsStreamOptions, useResultsStream } from '../api/stream-results';
import { CandidateResults } from './candidate-results';
import { LiveStatus } from './live-status';
import { exitFullscreen, PROJECTOR_PARAM, ProjectorView, requestFullscreen } from './projector-view';
import { ResultsBreakdown } from './results-breakdown';

export interface ResultsPageProps {
  /** How often to ask while the live stream is down (the spec's 5 s; shorter in tests). */
  pollMs?: number;
  stream?: ResultsStreamOptions;
}

/** The Resultados page: live totals per candidate, projector mode, and the breakdown with downloads. */
export function ResultsPage({ pollMs, stream: streamOptions }: ResultsPageProps) {
  const stream = useResultsStream(streamOptions);
  const results = useResults({ live: stream.status === 'live', pollMs });
  const [params, setParams] = useSearchParams();
  const projector = params.get(PROJECTOR_PARAM) === '1';
  const updatedAt = results.dataUpdatedAt ? Math.max(results.dataUpdatedAt, stream.lastEventAt ?? 0) : null;

  const enterProjector = () => {
    // Full screen needs this click; the parameter makes the mode survive a reload.
    requestFullscreen();
    setParams((p) => {
      const next = new URLSearchParams(p);
      next.set(PROJECTOR_PARAM, '1');
      return next;
    });
  };
  const leaveProjector = () => {
    exitFullscreen();
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete(PROJECTOR_PARAM);
        return next;
      },
      { replace: true },
    );
  };

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-black tracking-tight text-brand">{resultsMessages.title}</h1>
        <button
          type="button"
          onClick={enterProjector}
          className="rounded-md bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
        >
          {resultsMessages.projectorEnter}
        </button>
      </div>
      <LiveStatus status={stream.status} updatedAt={updatedAt} className="mt-3 text-sm text-stone-700" />

      <div className="mt-6">
        {results.isPending ? (
          <Spinner />
        ) : !results.data ? (
          <ErrorNotice message={results.error?.message ?? ''} onRetry={() => void results.refetch()} />
        ) : (
          <>
            <CandidateResults candidates={results.data.candidates} />
            <p className="mt-4 text-sm text-stone-700">
              {resultsMessages.denominator(formatCount(results.data.denominator))} ·{' '}
              {resultsMessages.ballots(formatCount(results.data.ballots))}
            </p>
          </>
        )}
      </div>

      <ResultsBreakdown live={stream.status === 'live'} pollMs={pollMs} />

      {projector && results.data && (
        <ProjectorView results={results.data} status={stream.status} updatedAt={updatedAt} onLeave={leaveProjector} />
      )}
    </>
  );
}
