import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChainState } from '#shared/features/evidence/evidence';
import { apiFetch } from '#web/platform/lib/api-client';
import { queryString } from '#web/platform/lib/query-keys';

export const chainStateKey = ['admin', 'evidence', 'chain'] as const;

export const getChainState = () => apiFetch<ChainState>('/api/admin/evidence/chain');

export const getChainStateQueryOptions = () => queryOptions({ queryKey: chainStateKey, queryFn: getChainState });

export const useChainState = () => useQuery(getChainStateQueryOptions());

/** The evidence package of one municipality, or of all (a plain download link: the browser saves the file). */
export const evidencePackageUrl = (department: string) =>
  `/api/admin/evidence/package.zip${queryString({ department: department || undefined })}`;
