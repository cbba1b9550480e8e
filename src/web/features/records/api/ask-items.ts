import type { ItemsAsked, ItemsHeld } from '#shared/features/election/election';
import { apiFetch } from '#web/platform/lib/api-client';

/**
 * Which of these item keys the server holds, and which its off-machine copy holds ('Asegurado'), with its
 * database's epoch (decision 135). The phone's outbox asks it for the items it keeps.
 */
export const askItems = (keys: ItemsAsked['keys']): Promise<ItemsHeld> =>
  apiFetch<ItemsHeld>('/api/election/items', {
    method: 'POST',
    body: JSON.stringify({ keys } satisfies ItemsAsked),
    timeoutMs: 15_000,
  });
