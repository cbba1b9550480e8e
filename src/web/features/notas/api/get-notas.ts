import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { NotasPage } from '#shared/features/notas/notas';
import { NOTAS_ASK_AGAIN_MS, NOTAS_PAGE_SIZE } from '#shared/platform/constants';
import { apiFetch } from '#web/platform/lib/api-client';

export const getNotas = (page: number, pageSize: number = NOTAS_PAGE_SIZE) =>
  apiFetch<NotasPage>(`/api/notas?page=${page}&pageSize=${pageSize}`);

/** While the list is loading, how often it is asked for again (the first copy of WordPress' notas). */
export const NOTAS_LOADING_POLL_MS = NOTAS_ASK_AGAIN_MS.loading as number;

export const getNotasQueryOptions = (pageSize: number = NOTAS_PAGE_SIZE) =>
  infiniteQueryOptions({
    queryKey: ['notas', pageSize],
    queryFn: ({ pageParam }) => getNotas(pageParam, pageSize),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page < last.totalPages ? last.page + 1 : undefined),
    refetchInterval: (query) => {
      const state = query.state.data?.pages[0]?.state;
      return (state && NOTAS_ASK_AGAIN_MS[state]) ?? false;
    },
  });

export const useNotas = (pageSize?: number) => useInfiniteQuery(getNotasQueryOptions(pageSize));
