import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SmsStatus } from '#shared/features/sms/sms';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

export const getSmsStatus = () => apiFetch<SmsStatus>('/api/admin/sms/status');

export const getSmsStatusQueryOptions = () => queryOptions({ queryKey: adminKeys.smsStatus(), queryFn: getSmsStatus });

/** Whether SMS votes work now: the gateway is asked by the server each time this is read. */
export const useSmsStatus = () => useQuery(getSmsStatusQueryOptions());
