import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditFilters, AuditPage } from '#shared/features/audit/audit';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys, queryString } from '#web/platform/lib/query-keys';

const filterParams = (f: AuditFilters) => ({
  person: f.person,
  action: f.action,
  department: f.department,
  from: f.from,
  to: f.to,
});

export const getAudit = (filters: AuditFilters, page: number) =>
  apiFetch<AuditPage>(`/api/admin/audit${queryString({ ...filterParams(filters), page })}`);

export const getAuditQueryOptions = (filters: AuditFilters, page: number) =>
  queryOptions({ queryKey: adminKeys.auditPage(filters, page), queryFn: () => getAudit(filters, page) });

export const useAudit = (filters: AuditFilters, page: number) =>
  useQuery({ ...getAuditQueryOptions(filters, page), placeholderData: keepPreviousData });

/** The CSV export of the same filters (a plain download link: the browser saves the file). */
export const auditCsvUrl = (filters: AuditFilters) => `/api/admin/audit.csv${queryString(filterParams(filters))}`;
