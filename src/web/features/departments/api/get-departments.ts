import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminDepartments } from '#shared/features/departments/departments';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

export const getDepartments = () => apiFetch<AdminDepartments>('/api/admin/departments');

export const getDepartmentsQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.departments(), queryFn: getDepartments });

/** Every department with its list size and progress (also the choices of the department pickers). */
export const useDepartments = () => useQuery(getDepartmentsQueryOptions());
