import { useQuery } from '@tanstack/react-query';
import type { ReviewQueue } from '#shared/features/photo-review/photo-review';
import { apiFetch } from '#web/platform/lib/api-client';

export const REVIEW_QUEUE_KEY = ['photo-review', 'queue'] as const;

/** The first records of the review queue (of one municipality, or of all one reviews), oldest vote first. */
export const getReviewQueue = (municipio: string | undefined, limit = 10) => {
  const query = new URLSearchParams({ limite: String(limit) });
  if (municipio) query.set('municipio', municipio);
  return apiFetch<ReviewQueue>(`/api/photo-review/queue?${query}`);
};

export const useReviewQueue = (municipio: string | undefined) =>
  useQuery({ queryKey: [...REVIEW_QUEUE_KEY, municipio ?? ''], queryFn: () => getReviewQueue(municipio) });
