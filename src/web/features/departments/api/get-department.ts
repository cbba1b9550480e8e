import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminDepartmentDetail } from '#shared/features/departments/departments';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

export const getDepartment = (slug: string) =>
  apiFetch<AdminDepartmentDetail>(`/api/admin/departments/${encodeURIComponent(slug)}`);

export const getDepartmentQueryOptions = (slug: string) =>
  queryOptions({ queryKey: adminKeys.department(slug), queryFn: () => getDepartment(slug) });

/** A department with its allow-list; nothing is asked while `slug` is null. */
export const useDepartment = (slug: string | null) =>
  useQuery({ ...getDepartmentQueryOptions(slug ?? ''), enabled: slug !== null });
