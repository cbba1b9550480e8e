import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminSettings, AdminSettingsBody } from '#shared/features/settings/settings';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { adminKeys } from '#web/platform/lib/query-keys';

export const updateSettings = (body: AdminSettingsBody) =>
  apiFetch<AdminSettings>('/api/admin/settings', { method: 'PUT', body: JSON.stringify(body) });

export function useUpdateSettings(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: updateSettings,
    onSuccess: (settings) => {
      queryClient.setQueryData(adminKeys.settings(), settings);
      // The navbar shows the campaign name; the session carries the logout route.
      void queryClient.invalidateQueries({ queryKey: ['site'] });
      void queryClient.invalidateQueries({ queryKey: ['session'] });
    },
  });
}
