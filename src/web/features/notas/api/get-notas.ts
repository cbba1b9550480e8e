import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { NotasPage } from '#shared/features/notas/notas';
import { NOTAS_PAGE_SIZE } from '#shared/platform/constants';
import { apiFetch } from '#web/platform/lib/api-client';

export const getNotas = (page: number, pageSize: number = NOTAS_PAGE_SIZE) =>
  apiFetch<NotasPage>(`/api/notas?page=${page}&pageSize=${pageSize}`);

export const getNotasQueryOptions = (pageSize: number = NOTAS_PAGE_SIZE) =>
  infiniteQueryOptions({
    queryKey: ['notas', pageSize],
    queryFn: ({ pageParam }) => getNotas(pageParam, pageSize),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page < last.totalPages ? last.page + 1 : undefined),
  });

export const useNotas = (pageSize?: number) => useInfiniteQuery(getNotasQueryOptions(pageSize));
