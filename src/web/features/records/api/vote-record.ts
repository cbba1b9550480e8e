import { ITEM_ERA_HEADER } from '#shared/platform/era';
import { IDEMPOTENCY_KEY_HEADER } from '#shared/platform/idempotency';
import { type SentRequest, sendRequest } from '#web/platform/lib/send-request';
import type { Timers } from '#web/platform/lib/timers';

/** A vote whose request moved nothing for this long is given up and tried again later. */
export const VOTE_IDLE_TIMEOUT_MS = 30_000;

export interface SendVoteInput {
  slug: string;
  recordId: number;
  candidates: string[];
  /** The Idempotency-Key made when 'Votar' was tapped: every try of this vote sends the same one. */
  key: string;
  /** The day's era when it was tapped (decision 094): a drill's vote is never taken as real. */
  era?: string | null | undefined;
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  timers?: Timers;
}

/** Sends one vote (from the phone's outbox); any HTTP answer resolves, no answer rejects. */
export const sendVote = (input: SendVoteInput): Promise<SentRequest> =>
  sendRequest({
    method: 'POST',
    url: `/api/validation/${encodeURIComponent(input.slug)}/records/${input.recordId}/vote`,
    headers: { [IDEMPOTENCY_KEY_HEADER]: input.key, ...(input.era ? { [ITEM_ERA_HEADER]: input.era } : {}) },
    body: JSON.stringify({ candidates: input.candidates }),
    onProgress: input.onProgress,
    idleTimeoutMs: VOTE_IDLE_TIMEOUT_MS,
    signal: input.signal,
    timers: input.timers,
  });
