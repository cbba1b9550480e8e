import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '#web/platform/lib/api-client';

export const clearField = (slug: string, email: string) =>
  apiFetch<{ cleared: number }>(`/api/field/${encodeURIComponent(slug)}/clear`, {
    method: 'POST',
    body: JSON.stringify({ email }),
  });

/** Forgets what a person's phones said waits in a department (a phone that went quiet); audited. */
export function useClearField() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, email }: { slug: string; email: string }) => clearField(slug, email),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['field'] }),
  });
}
