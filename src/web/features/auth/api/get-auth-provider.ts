import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuthProvider } from '#shared/features/auth/auth';
import { apiFetch } from '#web/platform/lib/api-client';

export const getAuthProvider = () => apiFetch<AuthProvider>('/api/auth/provider');

export const getAuthProviderQueryOptions = () =>
  queryOptions({
    queryKey: ['auth-provider'],
    queryFn: getAuthProvider,
    // Server configuration: it does not change while the page is open.
    staleTime: Number.POSITIVE_INFINITY,
  });

/** Who checks passwords on this site: the server itself, or Firebase Auth. */
export const useAuthProvider = () => useQuery(getAuthProviderQueryOptions());
