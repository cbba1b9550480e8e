import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SiteInfo } from '#shared/features/settings/settings';
import { apiFetch } from '#web/platform/lib/api-client';

export const getSiteInfo = () => apiFetch<SiteInfo>('/api/site');

export const getSiteInfoQueryOptions = () =>
  queryOptions({ queryKey: ['site'], queryFn: getSiteInfo, staleTime: 5 * 60_000 });

export const useSiteInfo = () => useQuery(getSiteInfoQueryOptions());
