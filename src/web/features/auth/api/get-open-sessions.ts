import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OpenSessions } from '#shared/features/auth/auth';
import { apiFetch } from '#web/platform/lib/api-client';

export const OPEN_SESSIONS_QUERY_KEY = ['auth', 'sessions'] as const;

export const getOpenSessions = () => apiFetch<OpenSessions>('/api/auth/sessions');

export const getOpenSessionsQueryOptions = () =>
  queryOptions({ queryKey: OPEN_SESSIONS_QUERY_KEY, queryFn: getOpenSessions });

/** 'Sesiones abiertas': where this account is signed in. */
export const useOpenSessions = () => useQuery(getOpenSessionsQueryOptions());
