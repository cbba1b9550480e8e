import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { NotasPage, NotasState } from '#shared/features/notas/notas';
import { NOTAS_PAGE_SIZE } from '#shared/platform/constants';
import { apiFetch } from '#web/platform/lib/api-client';

export const getNotas = (page: number, pageSize: number = NOTAS_PAGE_SIZE) =>
  apiFetch<NotasPage>(`/api/notas?page=${page}&pageSize=${pageSize}`);

/**
 * While the server has no copy of the notas yet (read from WordPress after a start), the list is asked
 * for again until it arrives, so a page already open shows the notas without a reload.
 */
export const NOTAS_LOADING_POLL_MS = 5_000;
const NOTAS_UNAVAILABLE_POLL_MS = 30_000;
const pollWhile: Partial<Record<NotasState, number>> = {
  loading: NOTAS_LOADING_POLL_MS,
  unavailable: NOTAS_UNAVAILABLE_POLL_MS,
};

export const getNotasQueryOptions = (pageSize: number = NOTAS_PAGE_SIZE) =>
  infiniteQueryOptions({
    queryKey: ['notas', pageSize],
    queryFn: ({ pageParam }) => getNotas(pageParam, pageSize),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page < last.totalPages ? last.page + 1 : undefined),
    refetchInterval: (query) => {
      const state = query.state.data?.pages[0]?.state;
      return (state && pollWhile[state]) ?? false;
    },
  });

export const useNotas = (pageSize?: number) => useInfiniteQuery(getNotasQueryOptions(pageSize));
