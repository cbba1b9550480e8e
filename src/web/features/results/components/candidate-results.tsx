import { type CandidateResult, resultsMessages } from '#shared/features/results/results';
import { formatPercent } from '#shared/platform/format';

export interface CandidateResultsProps {
  candidates: CandidateResult[];
  /** Projector: very large type for the back of a room. */
  size?: 'page' | 'projector';
}

const styles = {
  page: {
    list: 'grid gap-4 md:grid-cols-3',
    head: 'flex items-center gap-4',
    card: 'min-w-0 rounded-2xl border border-stone-200 bg-white p-5 shadow-sm',
    photo: 'h-20 w-20',
    name: 'text-lg font-bold leading-tight',
    code: 'text-sm font-semibold text-stone-600',
    percent: 'mt-4 text-5xl font-black tabular-nums tracking-tight',
    votes: 'mt-1 text-lg font-semibold tabular-nums text-stone-700',
    track: 'mt-4 h-4',
  },
  projector: {
    list: 'grid gap-[2.5vw] md:grid-cols-3',
    head: 'flex flex-col items-center gap-[0.8vw] text-center',
    // Sizes follow the card's own width (container units), so 100.00% still fits in a third of the screen.
    card: '@container min-w-0 rounded-3xl border-4 border-black bg-white p-[2vw] text-center',
    photo: 'h-[clamp(5rem,36cqw,15rem)] w-[clamp(5rem,36cqw,15rem)]',
    name: 'text-[clamp(1.5rem,7cqw,3.5rem)] font-black leading-tight',
    code: 'text-[clamp(1.25rem,5.5cqw,2.5rem)] font-bold',
    percent: 'mt-[1vw] text-[clamp(3rem,21cqw,10rem)] font-black leading-none tabular-nums tracking-tight',
    votes: 'mt-[0.8vw] text-[clamp(1.5rem,9cqw,4rem)] font-bold tabular-nums',
    track: 'mt-[1.5vw] h-[clamp(1.5rem,7cqw,3.5rem)] border-2 border-black',
  },
} as const;

/** One card per candidate: photo, percentage with two decimals, vote count and a bar in their colour. */
export function CandidateResults({ candidates, size = 'page' }: CandidateResultsProps) {
  const s = styles[size];
  return (
    <ul className={s.list}>
      {candidates.map((c) => {
        const percent = formatPercent(c.percent);
        const bar = Math.min(100, Math.max(0, c.percent));
        return (
          <li key={c.code} className={s.card} data-testid={`candidato-${c.code}`}>
            <div className={s.head}>
              <img
                src={c.photoUrl}
                alt={`Foto de ${c.name}`}
                className={`${s.photo} shrink-0 rounded-full border-4 object-cover`}
                style={{ borderColor: c.colour }}
              />
              <div className="min-w-0">
                <h2 className={s.name}>{c.name}</h2>
                <p className={s.code}>{c.code}</p>
              </div>
            </div>
            <p className={s.percent} data-testid="porcentaje">
              {percent}
            </p>
            <p className={s.votes} data-testid="votos">
              {resultsMessages.votes(c.votes)}
            </p>
            <div
              className={`${s.track} w-full overflow-hidden rounded-full bg-stone-200`}
              role="progressbar"
              aria-label={`Porcentaje de ${c.name}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(bar * 100) / 100}
              aria-valuetext={percent}
            >
              <div
                className="h-full rounded-full transition-[width] duration-500"
                style={{ width: `${bar}%`, backgroundColor: c.colour }}
              />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
