import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ResetPasswordBody, ResetPasswordResult } from '#shared/features/people/people';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

export const resetPassword = (id: number, body: ResetPasswordBody) =>
  apiFetch<ResetPasswordResult>(`/api/admin/users/${id}/password`, { method: 'POST', body: JSON.stringify(body) });

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: ResetPasswordBody & { id: number }) => resetPassword(id, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}
