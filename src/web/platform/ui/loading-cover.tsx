import { formatPercent } from '#shared/platform/format';
import { messages } from '#shared/platform/messages';

export interface LoadingCoverProps {
  /** 'Confirmando' while something is checked, 'Validando' while something is saved. */
  title?: string;
  message?: string;
  /** 0-100 when the work reports progress (an upload), otherwise an indeterminate spinner. */
  progress?: number;
}

/**
 * The spec's full-screen loading cover in dark red (#A31D1D): only while a photo is prepared and saved
 * on the phone (seconds), never while anything is on the network (docs/decisions/026 and 057).
 */
export function LoadingCover({
  title = messages.loading.confirming,
  message = messages.loading.doNotClose,
  progress,
}: LoadingCoverProps) {
  const pct = progress === undefined ? undefined : Math.max(0, Math.min(100, Math.round(progress)));
  return (
    <div
      className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 bg-[#A31D1D] px-6 text-center text-white"
      role="status"
      aria-live="polite"
      aria-busy="true"
      data-testid="loading-cover"
    >
      <div className="h-14 w-14 animate-spin rounded-full border-4 border-white/30 border-t-white" aria-hidden="true" />
      <p className="text-2xl font-bold">{title}</p>
      <p className="text-base text-white/90">{message}</p>
      {pct !== undefined && (
        <div className="w-64 max-w-full">
          <div
            className="h-3 w-full overflow-hidden rounded-full bg-white/25"
            role="progressbar"
            aria-label={title}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={pct}
          >
            <div className="h-full rounded-full bg-white transition-[width]" style={{ width: `${pct}%` }} />
          </div>
          <p className="mt-2 text-sm tabular-nums">{formatPercent(pct, 0)}</p>
        </div>
      )}
    </div>
  );
}
