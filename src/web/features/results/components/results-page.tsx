import { type ReactNode, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { resultsMessages } from '#shared/features/results/results';
import { formatCount, formatLongDate, formatTime } from '#shared/platform/format';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';
import { useResults } from '../api/get-results';
import { type ResultsStreamOptions, useResultsStream } from '../api/stream-results';
import { CandidateResults } from './candidate-results';
import { LiveStatus } from './live-status';
import {
  exitFullscreen,
  PROJECTOR_PARAM,
  ProjectorView,
  type ProjectorViewProps,
  requestFullscreen,
} from './projector-view';
import { ResultsBreakdown } from './results-breakdown';
import { ResultsNight } from './results-night';
import { ReviewShares } from './review-shares';

export interface ResultsPageProps {
  /** The campaign's name, for the printed page's header. */
  campaignName?: string | undefined;
  /** How often to ask while the live stream is down (the spec's 5 s; shorter in tests). */
  pollMs?: number;
  stream?: ResultsStreamOptions;
  /** Shown on top of the projector too (the page composing it gives the day's band). */
  band?: ReactNode;
  /** After the close: the projector's close view (the close's count, the late arrivals apart). */
  closeView?: ProjectorViewProps['closeView'];
}

/** The Resultados page: live totals per candidate, projector mode, and the breakdown with downloads. */
export function ResultsPage({ campaignName, pollMs, stream: streamOptions, band, closeView }: ResultsPageProps) {
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
      <PrintedHeader campaignName={campaignName} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-black tracking-tight text-brand print:text-2xl">{resultsMessages.title}</h1>
        <div className="flex flex-wrap gap-2 print:hidden">
          <button
            type="button"
            onClick={() => window.print()}
            className="rounded-md border-2 border-brand px-4 py-2 font-semibold text-brand hover:bg-brand-light focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
          >
            {resultsMessages.print}
          </button>
          <button
            type="button"
            onClick={enterProjector}
            className="rounded-md bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
          >
            {resultsMessages.projectorEnter}
          </button>
        </div>
      </div>
      <LiveStatus status={stream.status} updatedAt={updatedAt} className="mt-3 text-sm text-stone-700 print:hidden" />

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
              {resultsMessages.ballots(results.data.ballots)}
            </p>
          </>
        )}
      </div>

      <div className="mt-4">
        <ReviewShares live={stream.status === 'live'} pollMs={pollMs} />
      </div>

      <ResultsNight live={stream.status === 'live'} pollMs={pollMs} />

      <ResultsBreakdown live={stream.status === 'live'} pollMs={pollMs} />

      {projector && results.data && (
        <ProjectorView
          results={results.data}
          status={stream.status}
          updatedAt={updatedAt}
          onLeave={leaveProjector}
          band={band}
          closeView={closeView}
        />
      )}
    </>
  );
}

/**
 * Only on paper: the campaign, the page, and the day and time it was printed (the moment the print
 * dialog opens; until then, when the page was drawn).
 */
function PrintedHeader({ campaignName }: { campaignName: string | undefined }) {
  const [printedAt, setPrintedAt] = useState(() => new Date());
  useEffect(() => {
    const now = () => setPrintedAt(new Date());
    window.addEventListener('beforeprint', now);
    return () => window.removeEventListener('beforeprint', now);
  }, []);
  return (
    <header className="mb-4 hidden border-b-2 border-stone-900 pb-2 print:block" data-testid="cabecera-impresa">
      <p className="text-lg font-bold text-stone-900">{resultsMessages.printedTitle(campaignName ?? 'Comando')}</p>
      <p className="text-stone-900">{resultsMessages.printedAt(formatLongDate(printedAt), formatTime(printedAt))}</p>
    </header>
  );
}
