import type { Id, ToastItem } from 'react-toastify/unstyled';

/** Toasts a phone shows at once: the state of each vote and photo lives on its card, not here. */
export const PHONE_TOAST_LIMIT = 2;

/**
 * Keeps at most `limit` toasts open while `applies()` (a phone): when one more opens, the oldest is
 * closed at once. react-toastify's own `limit` queues the newcomer instead, so a confirmation would wait
 * up to a whole toast's life to be seen.
 */
export function createToastLimit(options: { limit: number; applies: () => boolean; dismiss: (id: Id) => void }) {
  const open: Id[] = [];
  return (item: Pick<ToastItem, 'id' | 'status'>): void => {
    const at = open.indexOf(item.id);
    if (item.status === 'removed') {
      if (at !== -1) open.splice(at, 1);
      return;
    }
    if (item.status !== 'added' || at !== -1) return;
    open.push(item.id);
    if (!options.applies()) return;
    while (open.length > options.limit) {
      const oldest = open.shift();
      if (oldest !== undefined) options.dismiss(oldest);
    }
  };
}
