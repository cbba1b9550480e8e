import { type CSSProperties, type ReactNode, useEffect, useRef, useState } from 'react';
import { type Results, resultsMessages } from '#shared/features/results/results';
import { formatCount } from '#shared/platform/format';
import { projectorMapWidth } from '#web/platform/charts/tile-map';
import { useResultsBreakdown } from '../api/get-results-breakdown';
import type { StreamStatus } from '../api/stream-results';
import { CandidateResults } from './candidate-results';
import { LiveStatus } from './live-status';
import { ResultsMap } from './results-map';
import { ResultsNight } from './results-night';
import { ReviewShares } from './review-shares';

/** The URL parameter that opens projector mode (?proyector=1), so a bookmark opens it directly. */
export const PROJECTOR_PARAM = 'proyector';

/** Full screen for the whole page, when the browser allows it (it needs a click: not on page load). */
export function requestFullscreen(): void {
  const root = document.documentElement;
  if (typeof root.requestFullscreen !== 'function' || document.fullscreenEnabled === false) return;
  if (document.fullscreenElement) return;
  root.requestFullscreen().catch(() => {});
}

export function exitFullscreen(): void {
  if (document.fullscreenElement && typeof document.exitFullscreen === 'function') {
    document.exitFullscreen().catch(() => {});
  }
}

export interface ProjectorViewProps {
  results: Results;
  status: StreamStatus;
  updatedAt: number | null;
  onLeave: () => void;
  /** A band over everything (the SIMULACRO band during the drill). */
  band?: ReactNode;
  /**
   * After the close, the close's count and the late arrivals apart, drawn with the live figures (the page
   * composing the projector gives them): the projector then shows them beside the map, on one screen.
   */
  closeView?: ((results: Results) => ReactNode) | undefined;
}

/**
 * What the close's map may take of the screen's height: all of it but the padding (2vw each side), the
 * map's title and its legend (two lines at most beside the map).
 */
const CLOSE_MAP_HEIGHT = '(100dvh - 4vw - 3 * clamp(1.2rem, 1.8vw, 2.5rem) - 5rem)';

/**
 * Projector mode: a modal dialog over the whole window (the navbar and the rest of the page become
 * inert), black on white, type sized by the screen's width so 1920×1080 reads from the back of a room.
 * It keeps updating; Escape, leaving full screen or the visible button close it.
 */
export function ProjectorView({ results, status, updatedAt, onLeave, band, closeView }: ProjectorViewProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const leave = useRef(onLeave);
  leave.current = onLeave;
  const canFullscreen =
    typeof document.documentElement.requestFullscreen === 'function' && document.fullscreenEnabled !== false;
  const [fullscreen, setFullscreen] = useState(() => Boolean(document.fullscreenElement));
  // Two pictures for the room: the totals, or the map and the day's timeline at the screen's full height.
  const [night, setNight] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (typeof dialog.showModal === 'function') {
      if (!dialog.open) dialog.showModal();
    } else {
      dialog.setAttribute('open', '');
    }
    // The dialog itself takes the focus, not its first button: no focus ring on the projected picture.
    dialog.focus();
    return () => {
      if (typeof dialog.close === 'function' && dialog.open) dialog.close();
    };
  }, []);

  // Escape leaves, wherever the focus is (the dialog's own cancel event covers it only when focused inside).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') leave.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    let was = Boolean(document.fullscreenElement);
    const onChange = () => {
      const now = Boolean(document.fullscreenElement);
      setFullscreen(now);
      // Escape in full screen is taken by the browser to leave full screen: leave projector mode with it.
      if (was && !now) leave.current();
      was = now;
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  // Keep a projector's screen from going to sleep while the results are shown.
  useEffect(() => {
    let lock: WakeLockSentinel | undefined;
    let cancelled = false;
    navigator.wakeLock
      ?.request('screen')
      .then((l) => {
        if (cancelled) void l.release();
        else lock = l;
      })
      .catch(() => {});
    return () => {
      cancelled = true;
      void lock?.release().catch(() => {});
    };
  }, []);

  const button =
    'rounded-xl border-[3px] border-black bg-white px-4 py-2 text-[clamp(1rem,1.1vw,1.5rem)] font-bold text-black hover:bg-black hover:text-white focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-black';

  const buttons = (
    <div className="flex flex-wrap gap-3">
      {canFullscreen && !fullscreen && (
        <button type="button" className={button} onClick={requestFullscreen}>
          {resultsMessages.fullscreen}
        </button>
      )}
      {!closeView && (
        <button type="button" className={button} onClick={() => setNight((n) => !n)}>
          {night ? 'Ver totales' : 'Ver mapa y línea de tiempo'}
        </button>
      )}
      <button type="button" className={button} onClick={onLeave}>
        {resultsMessages.projectorLeave}
      </button>
    </div>
  );

  return (
    <dialog
      ref={ref}
      aria-labelledby="proyector-titulo"
      tabIndex={-1}
      data-testid="modo-proyector"
      className="fixed inset-0 m-0 h-dvh max-h-none w-dvw max-w-none overflow-auto bg-white p-0 text-black outline-none backdrop:bg-white"
      onCancel={(event) => {
        event.preventDefault();
        onLeave();
      }}
    >
      {closeView ? (
        <CloseLayout results={results} status={status} updatedAt={updatedAt} buttons={buttons} closeView={closeView} />
      ) : (
        <>
          {band}
          <div className="flex min-h-full flex-col gap-[2.5vw] p-[3vw]">
            <div className="flex flex-wrap items-center justify-between gap-4">
              <h2
                id="proyector-titulo"
                className="text-[clamp(2rem,3.4vw,6rem)] font-black leading-none tracking-tight"
              >
                {resultsMessages.title}
              </h2>
              {buttons}
            </div>
            {night ? (
              <ResultsNight live={status === 'live'} size="projector" />
            ) : (
              <div className="flex flex-1 flex-col justify-center">
                <CandidateResults candidates={results.candidates} size="projector" />
              </div>
            )}
            <div className="flex flex-wrap items-center justify-between gap-x-8 gap-y-2 text-[clamp(1.1rem,1.8vw,2.5rem)] font-semibold">
              <p>{resultsMessages.denominator(formatCount(results.denominator))}</p>
              <ReviewShares live={status === 'live'} size="projector" />
              <LiveStatus status={status} updatedAt={updatedAt} />
            </div>
          </div>
        </>
      )}
    </dialog>
  );
}

/**
 * The projector after the close, on one screen from 1280×720 up (decision 101): on the left the close's
 * count, the late arrivals apart and when the figures were last confirmed; on the right the map at the
 * screen's full height, its figures at least 24 px. Below 1024 px wide (a phone) the two stack and scroll.
 */
function CloseLayout({
  results,
  status,
  updatedAt,
  buttons,
  closeView,
}: {
  results: Results;
  status: StreamStatus;
  updatedAt: number | null;
  buttons: ReactNode;
  closeView: (results: Results) => ReactNode;
}) {
  const breakdown = useResultsBreakdown({ live: status === 'live' });
  return (
    <div
      className="grid gap-[2vw] p-[2vw] lg:h-full lg:grid-cols-[minmax(0,1fr)_auto] lg:overflow-hidden"
      data-testid="proyector-cierre"
    >
      <div className="flex min-h-0 flex-col gap-[2.2vh]">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="proyector-titulo" className="text-[clamp(1.1rem,1.5vw,2.25rem)] font-black tracking-tight">
            {resultsMessages.title}
          </h2>
          {buttons}
        </div>
        {closeView(results)}
        <LiveStatus
          status={status}
          updatedAt={updatedAt}
          className="mt-auto text-[clamp(1.1rem,1.5vw,2.25rem)] font-semibold"
        />
      </div>
      <div
        className="min-w-0 lg:w-(--ancho-mapa)"
        style={{ '--ancho-mapa': projectorMapWidth(CLOSE_MAP_HEIGHT) } as CSSProperties}
      >
        {breakdown.data && (
          <ResultsMap breakdown={breakdown.data} size="projector" projectorHeight={CLOSE_MAP_HEIGHT} />
        )}
      </div>
    </div>
  );
}
