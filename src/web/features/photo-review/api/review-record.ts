import { useMutation } from '@tanstack/react-query';
import type { ReviewInput, ReviewResult } from '#shared/features/photo-review/photo-review';
import { apiFetch } from '#web/platform/lib/api-client';
import { showsOwnError } from '#web/platform/lib/mutation-errors';

export const reviewRecord = (recordId: number, input: ReviewInput) =>
  apiFetch<ReviewResult>(`/api/photo-review/records/${recordId}`, { method: 'POST', body: JSON.stringify(input) });

/** A record's verdicts; the review screen says the outcome itself (and moves on). */
export const useReviewRecord = () =>
  useMutation({
    mutationFn: ({ recordId, input }: { recordId: number; input: ReviewInput }) => reviewRecord(recordId, input),
    ...showsOwnError,
  });
