import { type ReactNode, useEffect, useRef, useState } from 'react';
import { type Results, resultsMessages } from '#shared/features/results/results';
import { formatCount } from '#shared/platform/format';
import type { StreamStatus } from '../api/stream-results';
import { CandidateResults } from './candidate-results';
import { LiveStatus } from './live-status';
import { ResultsNight } from './results-night';

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
}

/**
 * Projector mode: a modal dialog over the whole window (the navbar and the rest of the page become
 * inert), black on white, type sized by the screen's width so 1920×1080 reads from the back of a room.
 * It keeps updating; Escape, leaving full screen or the visible button close it.
 */
export function ProjectorView({ results, status, updatedAt, onLeave, band }: ProjectorViewProps) {
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
      {band}
      <div className="flex min-h-full flex-col gap-[2.5vw] p-[3vw]">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <h2 id="proyector-titulo" className="text-[clamp(2rem,3.4vw,6rem)] font-black leading-none tracking-tight">
            {resultsMessages.title}
          </h2>
          <div className="flex gap-3">
            {canFullscreen && !fullscreen && (
              <button type="button" className={button} onClick={requestFullscreen}>
                {resultsMessages.fullscreen}
              </button>
            )}
            <button type="button" className={button} onClick={() => setNight((n) => !n)}>
              {night ? 'Ver totales' : 'Ver mapa y línea de tiempo'}
            </button>
            <button type="button" className={button} onClick={onLeave}>
              {resultsMessages.projectorLeave}
            </button>
          </div>
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
          <LiveStatus status={status} updatedAt={updatedAt} />
        </div>
      </div>
    </dialog>
  );
}
