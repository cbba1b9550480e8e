import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminSettings } from '../../../../shared/admin';
import { apiFetch } from '../../../lib/api-client';
import { adminKeys } from './keys';

export const getSettings = () => apiFetch<AdminSettings>('/api/admin/settings');

export const getSettingsQueryOptions = () => queryOptions({ queryKey: adminKeys.settings(), queryFn: getSettings });

export const useSettings = () => useQuery(getSettingsQueryOptions());
