import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminDepartmentDetail } from '#shared/features/departments/departments';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { adminKeys } from '#web/platform/lib/query-keys';

export const updateDepartment = (slug: string, title: string) =>
  apiFetch<AdminDepartmentDetail>(`/api/admin/departments/${encodeURIComponent(slug)}`, {
    method: 'PATCH',
    body: JSON.stringify({ title }),
  });

export function useUpdateDepartment(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: ({ slug, title }: { slug: string; title: string }) => updateDepartment(slug, title),
    onSuccess: (department) => {
      queryClient.setQueryData(adminKeys.department(department.slug), department);
      void queryClient.invalidateQueries({ queryKey: adminKeys.departments() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.users() });
      // The menu shows department titles.
      void queryClient.invalidateQueries({ queryKey: ['session'] });
    },
  });
}
