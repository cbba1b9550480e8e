import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReviewGrantInput, ReviewGrants } from '#shared/features/photo-review/photo-review';
import { apiFetch } from '#web/platform/lib/api-client';

const GRANTS_KEY = ['photo-review', 'grants'] as const;

export const getReviewGrants = () => apiFetch<ReviewGrants>('/api/photo-review/grants');

/** The reviewers and their municipalities (admins). */
export const useReviewGrants = (enabled: boolean) =>
  useQuery({ queryKey: GRANTS_KEY, queryFn: getReviewGrants, enabled });

export const changeReviewGrant = (how: 'POST' | 'DELETE', input: ReviewGrantInput) =>
  apiFetch<{ message: string }>('/api/photo-review/grants', { method: how, body: JSON.stringify(input) });

/** Names a reviewer of a municipality ('POST') or takes it from them ('DELETE'). */
export function useChangeReviewGrant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ how, input }: { how: 'POST' | 'DELETE'; input: ReviewGrantInput }) => changeReviewGrant(how, input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: GRANTS_KEY }),
  });
}
