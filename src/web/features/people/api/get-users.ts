import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { UsersPage, UsersQuery } from '#shared/features/people/people';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys, queryString } from '#web/platform/lib/query-keys';

export const getUsers = (query: UsersQuery) =>
  apiFetch<UsersPage>(
    `/api/admin/users${queryString({ q: query.q, role: query.role, status: query.status, department: query.department, page: query.page })}`,
  );

export const getUsersQueryOptions = (query: UsersQuery) =>
  queryOptions({ queryKey: adminKeys.usersList(query), queryFn: () => getUsers(query) });

/** One page of accounts; the previous page stays on screen while the next one loads. */
export const useUsers = (query: UsersQuery) =>
  useQuery({ ...getUsersQueryOptions(query), placeholderData: keepPreviousData });
