import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminSettings } from '#shared/features/settings/settings';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

export const getSettings = () => apiFetch<AdminSettings>('/api/admin/settings');

export const getSettingsQueryOptions = () => queryOptions({ queryKey: adminKeys.settings(), queryFn: getSettings });

export const useSettings = () => useQuery(getSettingsQueryOptions());
