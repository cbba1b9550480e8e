import { useQuery } from '@tanstack/react-query';
import type { FieldOverview, FieldView } from '#shared/features/field/field';
import { apiFetch } from '#web/platform/lib/api-client';

/** How often the field view asks again, while it is on screen. */
export const FIELD_REFRESH_MS = 10_000;

const refreshing = { refetchInterval: FIELD_REFRESH_MS, refetchIntervalInBackground: false } as const;

/** Every department the person may see, at once: asked again every few seconds while visible. */
export const useFieldOverview = () =>
  useQuery({ queryKey: ['field'], queryFn: () => apiFetch<FieldOverview>('/api/field'), ...refreshing });

/** One department's field view, asked again every few seconds while the page is visible. */
export const useFieldView = (slug: string) =>
  useQuery({
    queryKey: ['field', slug],
    queryFn: () => apiFetch<FieldView>(`/api/field/${encodeURIComponent(slug)}`),
    ...refreshing,
  });
