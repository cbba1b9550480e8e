import { useQuery } from '@tanstack/react-query';
import type { FieldPace } from '#shared/features/field/field';
import { apiFetch } from '#web/platform/lib/api-client';

export const FIELD_PACE_KEY = ['field', 'pace'] as const;

/**
 * Each validator's pace. No timer of its own: Campo asks for it again with its field view and on each
 * event of the live stream (field-night.tsx).
 */
export const useFieldPace = () =>
  useQuery({ queryKey: FIELD_PACE_KEY, queryFn: () => apiFetch<FieldPace>('/api/field/pace') });
