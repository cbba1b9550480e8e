import type { DisplayEvent } from '../agenda-text';

export function AgendaEventList({ events, compact = false }: { events: DisplayEvent[]; compact?: boolean }) {
  return (
    <ol className="flex flex-col gap-3">
      {events.map((e) => (
        <li
          key={e.id}
          className={`flex gap-4 rounded-xl border border-stone-200 bg-white ${compact ? 'p-3' : 'p-4'} shadow-sm`}
          data-testid="agenda-event"
        >
          <p className="w-24 shrink-0 font-bold text-brand tabular-nums" data-testid="agenda-time">
            {e.time}
          </p>
          <div className="min-w-0">
            <p className="font-semibold text-stone-900" data-testid="agenda-description">
              {e.description}
            </p>
            <p className="text-stone-600" data-testid="agenda-place">
              <span className="sr-only">Lugar: </span>
              {e.place}
            </p>
          </div>
        </li>
      ))}
    </ol>
  );
}
