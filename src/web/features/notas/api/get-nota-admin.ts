import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotaAdmin } from '#shared/features/notas/notas.admin';
import { apiFetch } from '#web/platform/lib/api-client';
import { notasAdminKeys } from './notas-admin-keys';

export const getNotaAdmin = (id: number) => apiFetch<NotaAdmin>(`/api/admin/notas/${id}`);

export const getNotaAdminQueryOptions = (id: number) =>
  queryOptions({ queryKey: notasAdminKeys.one(id), queryFn: () => getNotaAdmin(id), staleTime: 0 });

/** One nota with its HTML, for the editor. */
export const useNotaAdmin = (id: number, enabled = true) => useQuery({ ...getNotaAdminQueryOptions(id), enabled });
