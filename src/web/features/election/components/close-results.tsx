import { closeResultsTitle } from '#shared/features/election/election';
import { countOf, formatCount, formatTime } from '#shared/platform/format';
import { useCloseResults } from '../api/get-close-results';
import { useElection } from '../api/get-election';

/**
 * 'Resultados al cierre, 6:00 p. m.': once the day has closed, the counts the server kept at the close,
 * and apart from them how many votes and photos arrived late. Nothing before the close. `projector`: the
 * close's picture for a room (decision 101), the counts large, the late arrivals in a box of their own.
 */
export function CloseResults({ large = false, projector = false }: { large?: boolean; projector?: boolean }) {
  const election = useElection();
  const closedAt = election.data?.closedAt ?? null;
  const close = useCloseResults(closedAt);
  if (!closedAt || !close.data?.closedAt) return null;
  const data = close.data;
  if (projector) {
    return (
      <section
        aria-labelledby="cierre-proyector-titulo"
        className="flex min-h-0 flex-col gap-[2vh]"
        data-testid="cierre"
      >
        <h2
          id="cierre-proyector-titulo"
          className="text-[clamp(1.5rem,2.6vw,4.5rem)] leading-none font-black tracking-tight"
        >
          {/* The time never parts from its 'a. m.'. */}
          Resultados al cierre, <span className="whitespace-nowrap">{formatTime(new Date(closedAt))}</span>
        </h2>
        <ul className="flex flex-col gap-[1.2vh]">
          {data.candidates.map((c) => (
            <li
              key={c.code}
              className="flex items-baseline justify-between gap-4 border-b-4 border-black pb-[0.6vh]"
              data-testid={`cierre-${c.code}`}
            >
              <span className="min-w-0 text-[clamp(1.5rem,2.4vw,3.5rem)] font-bold leading-tight">
                {c.name} <span className="font-semibold">({c.code})</span>
              </span>
              <span className="text-[clamp(2rem,4.2vw,6.5rem)] font-black leading-none tabular-nums">
                {formatCount(c.votes)}
              </span>
            </li>
          ))}
        </ul>
        <p className="text-[clamp(1.25rem,1.8vw,2.75rem)] font-semibold">
          {countOf(data.ballots, 'trámite votado al cierre', 'trámites votados al cierre')}
        </p>
      </section>
    );
  }
  return (
    <section
      aria-label={closeResultsTitle(closedAt)}
      className={`border-b-4 border-stone-900 bg-stone-100 px-4 py-3 text-stone-950 ${large ? 'text-[clamp(1.25rem,2vw,3rem)]' : ''}`}
    >
      <h2 className="font-black">{closeResultsTitle(closedAt)}</h2>
      <p>
        {data.candidates.map((c) => `${c.name}: ${formatCount(c.votes)}`).join(' · ')}
        {' · '}Boletas: {formatCount(data.ballots)}
      </p>
      <p className="font-semibold">Llegaron después del cierre: {formatCount(data.lateArrivals)}</p>
    </section>
  );
}

/**
 * The late arrivals apart from the close's count, on the projector: how many came after the close, and
 * what the totals are with them (the live figures, given by the page that composes the projector).
 */
export function LateArrivalsApart({ totals }: { totals: { code: string; votes: number }[] }) {
  const election = useElection();
  const closedAt = election.data?.closedAt ?? null;
  const close = useCloseResults(closedAt);
  if (!closedAt || !close.data?.closedAt) return null;
  const late = close.data.lateArrivals;
  return (
    <section
      aria-label="Después del cierre"
      className="rounded-2xl border-4 border-dashed border-black p-[1.2vw] text-[clamp(1.1rem,1.6vw,2.5rem)]"
      data-testid="despues-del-cierre"
    >
      <p className="font-black">Llegaron después del cierre: {formatCount(late)}</p>
      <p className="font-semibold">
        Aparte del conteo al cierre. Con ellos: {/* A code and its count never part across lines. */}
        {totals.map((t) => `${t.code}\u00a0${formatCount(t.votes)}`).join('\u00a0· ')}
      </p>
    </section>
  );
}
