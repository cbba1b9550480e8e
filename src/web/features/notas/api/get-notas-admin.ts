import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { NotasAdminPage, NotasAdminQuery } from '#shared/features/notas/notas.admin';
import { apiFetch } from '#web/platform/lib/api-client';
import { notasAdminKeys } from './notas-admin-keys';

export const getNotasAdmin = (query: NotasAdminQuery) => {
  const params = new URLSearchParams();
  if (query.page) params.set('page', String(query.page));
  if (query.status && query.status !== 'todas') params.set('status', query.status);
  if (query.q?.trim()) params.set('q', query.q.trim());
  const search = params.toString();
  return apiFetch<NotasAdminPage>(`/api/admin/notas${search ? `?${search}` : ''}`);
};

export const getNotasAdminQueryOptions = (query: NotasAdminQuery) =>
  queryOptions({ queryKey: notasAdminKeys.list(query), queryFn: () => getNotasAdmin(query) });

/** Notas for their editors, drafts included; the previous page stays on screen while the next loads. */
export const useNotasAdmin = (query: NotasAdminQuery) =>
  useQuery({ ...getNotasAdminQueryOptions(query), placeholderData: keepPreviousData });
