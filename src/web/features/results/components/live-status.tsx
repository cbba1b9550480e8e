import { resultsMessages } from '#shared/features/results/results';
import { formatClock } from '#web/platform/lib/format';
import type { StreamStatus } from '../api/stream-results';

const dot: Record<StreamStatus, string> = {
  live: 'bg-green-600',
  connecting: 'bg-stone-400 animate-pulse',
  polling: 'bg-amber-500',
};

const label: Record<StreamStatus, string> = {
  live: resultsMessages.live,
  connecting: resultsMessages.connecting,
  polling: resultsMessages.polling,
};

export interface LiveStatusProps {
  status: StreamStatus;
  /** When the numbers were last known to be current (ms since the epoch). */
  updatedAt: number | null;
  className?: string;
}

/** Whether the numbers arrive live or by polling, and when they were last confirmed. */
export function LiveStatus({ status, updatedAt, className = '' }: LiveStatusProps) {
  return (
    <div className={`flex flex-wrap items-center gap-x-4 gap-y-1 ${className}`}>
      <p
        role="status"
        className="flex items-center gap-2 font-semibold"
        data-testid="estado-en-vivo"
        data-status={status}
      >
        <span className={`inline-block h-[0.7em] w-[0.7em] rounded-full ${dot[status]}`} aria-hidden="true" />
        {label[status]}
      </p>
      {updatedAt !== null && (
        <p className="tabular-nums" data-testid="actualizado">
          {resultsMessages.updatedAt(formatClock(updatedAt))}
        </p>
      )}
    </div>
  );
}
