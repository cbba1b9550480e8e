import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ResetSecondFactorResult } from '#shared/features/people/people';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

/** 'Quitar segundo factor' for someone who lost their phone (audited; their sessions end). */
export const resetSecondFactor = (id: number) =>
  apiFetch<ResetSecondFactorResult>(`/api/admin/users/${id}/second-factor/reset`, { method: 'POST' });

export function useResetSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => resetSecondFactor(id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}
