import type { NotasPage } from '#shared/features/notas/notas';
import { NOTAS_ASK_AGAIN_MS } from '#shared/platform/constants';
import { apiFetch } from '#web/platform/lib/api-client';

/**
 * A page rendered while the server had no copy of the notas yet (WordPress still being read after a
 * start) says they are loading. Like the app, it asks again (every 5 s while loading, every 30 s while
 * the source does not answer) and, once they have come, loads itself again: the server renders it with
 * them, exactly as a new visitor gets it. A failed ask is asked again later.
 */
export function showNotasWhenTheyArrive(
  first: NotasPage,
  signal: AbortSignal,
  reload: () => void = () => window.location.reload(),
): void {
  let wait = NOTAS_ASK_AGAIN_MS[first.state];
  if (wait === undefined) return;
  const ask = async () => {
    if (signal.aborted) return;
    try {
      const now = await apiFetch<NotasPage>(`/api/notas?page=1&pageSize=${first.pageSize}`);
      if (signal.aborted) return;
      if (NOTAS_ASK_AGAIN_MS[now.state] === undefined) {
        reload();
        return;
      }
      wait = NOTAS_ASK_AGAIN_MS[now.state];
    } catch {
      // Asked again at the next turn.
    }
    setTimeout(ask, wait);
  };
  setTimeout(ask, wait);
}
