import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecordsDepartment } from '#shared/features/records-admin/records-admin';
import { apiFetch } from '#web/platform/lib/api-client';
import { recordsAdminKeys } from './records-admin-keys';

export const getRecordsDepartments = () => apiFetch<{ items: RecordsDepartment[] }>('/api/admin/records/departments');

export const getRecordsDepartmentsQueryOptions = () =>
  queryOptions({ queryKey: recordsAdminKeys.departments(), queryFn: getRecordsDepartments });

/** Municipalities and parishes with their pending, voted, validated and voided records. */
export const useRecordsDepartments = () => useQuery(getRecordsDepartmentsQueryOptions());
