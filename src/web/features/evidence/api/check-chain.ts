import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChainState } from '#shared/features/evidence/evidence';
import { apiFetch } from '#web/platform/lib/api-client';
import { chainStateKey } from './get-chain-state';

// Checking a long chain reads every row and photo file: it may take a while.
const CHECK_TIMEOUT_MS = 10 * 60_000;

export const checkChain = () =>
  apiFetch<ChainState>('/api/admin/evidence/chain/check', { method: 'POST', timeoutMs: CHECK_TIMEOUT_MS });

/** Verifies the audit chain now; its answer is the chain's new state. */
export function useCheckChain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: checkChain,
    onSuccess: (state) => queryClient.setQueryData(chainStateKey, state),
  });
}
