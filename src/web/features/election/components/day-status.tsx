import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  CLOSE_WARNING_MINUTES,
  dayMessages,
  ELECTION_PHASE_LABELS,
  type ElectionPhase,
  timeLeft,
} from '#shared/features/election/election-day';
import { formatTime } from '#shared/platform/format';
import { useOnline } from '#web/platform/lib/use-online';
import { type ElectionDay, electionKey, useElection } from '../api/get-election';

/** The day as a page shows it now, on the server's clock. */
export interface DayView {
  /** Null until the server has answered once. */
  phase: ElectionPhase | null;
  /** The close set in advance, while it is ahead. */
  closesAt: string | null;
  /** When the day closed: the server's word, or the close set in advance once its time has come here. */
  closedAt: string | null;
  /** Until the close set in advance, on the server's clock. */
  msLeft: number | null;
  /** The close is CLOSE_WARNING_MINUTES away or less. */
  near: boolean;
  /** Without a connection: when the answer shown was heard (the phone keeps the last one). */
  offlineSince: Date | null;
}

const TICK_MS = 1_000;

/**
 * The server's time as this phone estimates it (its own clock plus the distance measured at the last
 * answer). With `everySecond` it ticks every second while a close set in advance is ahead (for a
 * countdown); otherwise the component renders again only when the close's time passes.
 */
function useServerNow(day: ElectionDay | undefined, closesAtMs: number | null, everySecond: boolean): number {
  const offset = day?.clockOffsetMs ?? 0;
  const [now, setNow] = useState(() => Date.now() + offset);
  useEffect(() => {
    const update = () =>
      setNow((previous) => {
        const next = Date.now() + offset;
        if (everySecond || closesAtMs === null) return next;
        return previous < closesAtMs !== next < closesAtMs ? next : previous;
      });
    update();
    if (closesAtMs === null) return;
    const timer = setInterval(update, TICK_MS);
    return () => clearInterval(timer);
  }, [offset, closesAtMs, everySecond]);
  return now;
}

/**
 * The day's phase and close where people work (docs/decisions/096): from the status every staff page
 * already reads (GET /api/election, asked again every minute), with the close set in advance counted
 * down on the server's clock. When that time comes the page shows the day closed at once and asks the
 * server again. `everySecond: false` for pages that only need to know whether the day is closed.
 */
export function useElectionDay({ enabled = true, everySecond = true } = {}): DayView {
  const election = useElection(enabled);
  const online = useOnline();
  const day = election.data;
  const offlineSince = day && !online ? new Date(day.heardAt) : null;
  const queryClient = useQueryClient();
  const ahead = day && !day.closedAt && day.phase === 'en_curso' ? day.closesAt : null;
  const closesAtMs = ahead ? Date.parse(ahead) : null;
  const now = useServerNow(day, closesAtMs, everySecond);
  const passed = closesAtMs !== null && now >= closesAtMs;
  useEffect(() => {
    if (passed) void queryClient.invalidateQueries({ queryKey: electionKey });
  }, [passed, queryClient]);
  if (!day) return { phase: null, closesAt: null, closedAt: null, msLeft: null, near: false, offlineSince: null };
  if (day.closedAt || passed) {
    return {
      phase: 'cerrada',
      closesAt: null,
      closedAt: day.closedAt ?? ahead,
      msLeft: null,
      near: false,
      offlineSince,
    };
  }
  const msLeft = closesAtMs === null ? null : closesAtMs - now;
  return {
    phase: day.phase,
    closesAt: ahead,
    closedAt: null,
    msLeft,
    near: msLeft !== null && msLeft <= CLOSE_WARNING_MINUTES * 60_000,
    offlineSince,
  };
}

/** 'Cierra en 25 min' under an hour, 'Cierra 6:00 p. m.' before. */
const pillCountdown = (closesAt: string, msLeft: number) =>
  msLeft < 60 * 60_000
    ? `Cierra en ${timeLeft(msLeft).replace(/^falta(n)? /, '')}`
    : `Cierra ${formatTime(new Date(closesAt))}`;

/**
 * The navbar's word on the day, on every staff page: the phase, the countdown once a close is set, or
 * 'Jornada cerrada'. Its full sentence is its accessible name.
 */
export function DayPill({ enabled = true }: { enabled?: boolean }) {
  const day = useElectionDay({ enabled });
  if (!day.phase) return null;
  let text: string = ELECTION_PHASE_LABELS[day.phase];
  let full = `Jornada: ${text}`;
  let tone = 'border-stone-300 bg-white text-stone-800';
  if (day.closedAt) {
    text = dayMessages.closed;
    full = dayMessages.closedAt(day.closedAt);
    tone = 'border-stone-900 bg-stone-900 text-white';
  } else if (day.closesAt && day.msLeft !== null) {
    text = pillCountdown(day.closesAt, day.msLeft);
    full = dayMessages.closesIn(day.closesAt, day.msLeft);
    tone = day.near ? 'border-amber-600 bg-amber-100 text-amber-950' : 'border-sky-700 bg-sky-50 text-sky-950';
  }
  return (
    <span
      className={`mr-1 inline-flex max-w-[9.5rem] items-center truncate rounded-full border px-2.5 py-1 text-xs font-bold sm:max-w-none sm:text-sm ${tone}`}
      title={full}
      data-testid="jornada-navbar"
    >
      <span aria-hidden="true">{text}</span>
      <span className="sr-only">{full}</span>
    </span>
  );
}

/**
 * The day on a validator's page (and, `large`, on the projector): the phase; while a close set in advance
 * is ahead, 'La jornada cierra a las 6:00 p. m. — faltan 25 min', with a warning once it is near; after
 * the close, 'Jornada cerrada'. The drill has its own band.
 */
export function DayBanner({ large = false, forValidators = false }: { large?: boolean; forValidators?: boolean }) {
  const day = useElectionDay();
  if (!day.phase || day.phase === 'simulacro') return null;
  // Without a connection, the phone shows the last answer it kept, and says how old it is.
  const heard =
    day.offlineSince && !large ? (
      <p className="mt-1 text-sm font-normal" data-testid="jornada-sin-conexion">
        {dayMessages.lastHeard(day.offlineSince)}
      </p>
    ) : null;
  // On the projector, aligned with 'Resultados al cierre' below it.
  const size = large ? 'text-[clamp(1.25rem,2vw,3rem)] px-4 py-3' : 'px-4 py-3';
  if (day.closedAt) {
    return (
      <section
        aria-labelledby="jornada-cerrada"
        className={`${large ? '' : 'mt-3 rounded-xl'} border-2 border-stone-900 bg-stone-900 text-white ${size}`}
        data-testid="jornada"
      >
        <h2 id="jornada-cerrada" className={`font-black ${large ? '' : 'text-xl'}`}>
          {dayMessages.closed}
        </h2>
        <p role="status">
          {dayMessages.closedAt(day.closedAt)}
          {forValidators ? ` ${dayMessages.closedForValidators}` : ''}
        </p>
        {heard}
      </section>
    );
  }
  if (day.closesAt && day.msLeft !== null) {
    return (
      <section
        aria-label="Cierre de la jornada"
        className={`${large ? '' : 'mt-3 rounded-xl'} border-2 ${
          day.near ? 'border-amber-600 bg-amber-50 text-amber-950' : 'border-sky-700 bg-sky-50 text-sky-950'
        } ${size}`}
        data-testid="jornada"
      >
        <p className="font-bold tabular-nums">{dayMessages.closesIn(day.closesAt, day.msLeft)}</p>
        {day.near && forValidators && (
          <p role="status" className="mt-1">
            {dayMessages.closeNear}
          </p>
        )}
        {heard}
      </section>
    );
  }
  // Nothing set in advance: the phase, quietly (the projector needs no word while the day is under way).
  if (large) return null;
  return (
    <div className="mt-2 text-sm font-semibold text-stone-700" data-testid="jornada">
      <p>{day.phase === 'preparacion' ? dayMessages.preparingShort : dayMessages.underWay}</p>
      {heard}
    </div>
  );
}
