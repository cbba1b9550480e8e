import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SecondFactorStatus } from '#shared/features/auth/second-factor';
import { apiFetch } from '#web/platform/lib/api-client';

export const SECOND_FACTOR_QUERY_KEY = ['auth', 'second-factor'] as const;

export const getSecondFactor = () => apiFetch<SecondFactorStatus>('/api/auth/second-factor');

export const getSecondFactorQueryOptions = () =>
  queryOptions({ queryKey: SECOND_FACTOR_QUERY_KEY, queryFn: getSecondFactor });

/** Whether the signed-in person has a second factor, and how many recovery codes are left. */
export const useSecondFactor = () => useQuery(getSecondFactorQueryOptions());
