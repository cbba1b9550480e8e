import { useQuery } from '@tanstack/react-query';
import type { FieldDepartments, FieldView } from '#shared/features/field/field';
import { apiFetch } from '#web/platform/lib/api-client';

/** How often the field view asks again, while it is on screen. */
export const FIELD_REFRESH_MS = 10_000;

export const useFieldDepartments = () =>
  useQuery({ queryKey: ['field'], queryFn: () => apiFetch<FieldDepartments>('/api/field'), staleTime: 60_000 });

/** One department's field view, asked again every few seconds while the page is visible. */
export const useFieldView = (slug: string) =>
  useQuery({
    queryKey: ['field', slug],
    queryFn: () => apiFetch<FieldView>(`/api/field/${encodeURIComponent(slug)}`),
    refetchInterval: FIELD_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
