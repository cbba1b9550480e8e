import { closeResultsTitle } from '#shared/features/election/election';
import { formatCount } from '#shared/platform/format';
import { useCloseResults } from '../api/get-close-results';
import { useElection } from '../api/get-election';

/**
 * 'Resultados al cierre, 6:00 p. m.': once the day has closed, the counts the server kept at the close,
 * and apart from them how many votes and photos arrived late. Nothing before the close.
 */
export function CloseResults({ large = false }: { large?: boolean }) {
  const election = useElection();
  const closedAt = election.data?.closedAt ?? null;
  const close = useCloseResults(closedAt);
  if (!closedAt || !close.data?.closedAt) return null;
  const data = close.data;
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
