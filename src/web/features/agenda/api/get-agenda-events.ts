import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AgendaAdminList } from '#shared/features/agenda/agenda.admin';
import { apiFetch } from '#web/platform/lib/api-client';
import { agendaAdminKeys } from './agenda-admin-keys';

export const getAgendaEvents = (from: string, to: string) =>
  apiFetch<AgendaAdminList>(`/api/admin/agenda?from=${from}&to=${to}`);

export const getAgendaEventsQueryOptions = (from: string, to: string) =>
  queryOptions({ queryKey: agendaAdminKeys.range(from, to), queryFn: () => getAgendaEvents(from, to) });

/** The events of a range of days, by day and time; the previous range stays on screen while the next loads. */
export const useAgendaEvents = (from: string, to: string) =>
  useQuery({ ...getAgendaEventsQueryOptions(from, to), placeholderData: keepPreviousData });
