import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AgendaToday } from '#shared/features/agenda/agenda';
import { apiFetch } from '#web/platform/lib/api-client';

export const getAgendaToday = () => apiFetch<AgendaToday>('/api/agenda/today');

export const getAgendaTodayQueryOptions = () =>
  queryOptions({ queryKey: ['agenda', 'today'], queryFn: getAgendaToday, refetchInterval: 5 * 60_000 });

export const useAgendaToday = () => useQuery(getAgendaTodayQueryOptions());
