import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminDepartmentDetail, CreateDepartmentBody } from '#shared/features/departments/departments';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { adminKeys } from '#web/platform/lib/query-keys';
import { SESSION_QUERY_KEY } from '#web/platform/session/get-session';

export const createDepartment = (body: CreateDepartmentBody) =>
  apiFetch<AdminDepartmentDetail>('/api/admin/departments', { method: 'POST', body: JSON.stringify(body) });

export function useCreateDepartment(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: createDepartment,
    onSuccess: (department) => {
      queryClient.setQueryData(adminKeys.department(department.slug), department);
      // Every list of departments: this page, the people's and the records' choices, the menu.
      void queryClient.invalidateQueries({ queryKey: adminKeys.departments() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.users() });
      void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    },
  });
}
