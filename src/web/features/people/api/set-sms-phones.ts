import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUser } from '#shared/features/people/people';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

export const setSmsPhones = (id: number, phones: string[]) =>
  apiFetch<AdminUser>(`/api/admin/users/${id}/sms-phones`, { method: 'PUT', body: JSON.stringify({ phones }) });

export function useSetSmsPhones() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, phones }: { id: number; phones: string[] }) => setSmsPhones(id, phones),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}
