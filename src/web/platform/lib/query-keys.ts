import type { AuditFilters } from '#shared/features/audit/audit';
import type { UsersQuery } from '#shared/features/people/people';

/** Query keys of the back office: one tree, so a change can refresh exactly what it touched. */
export const adminKeys = {
  all: ['admin'] as const,
  users: () => ['admin', 'users'] as const,
  usersList: (query: UsersQuery) => ['admin', 'users', query] as const,
  departments: () => ['admin', 'departments'] as const,
  department: (slug: string) => ['admin', 'departments', slug] as const,
  candidates: () => ['admin', 'candidates'] as const,
  settings: () => ['admin', 'settings'] as const,
  audit: () => ['admin', 'audit'] as const,
  election: () => ['admin', 'election'] as const,
  electionCopy: () => ['admin', 'election', 'copy'] as const,
  auditPage: (filters: AuditFilters, page: number) => ['admin', 'audit', filters, page] as const,
  smsMessages: (filters: { department: string; phone: string }) => ['admin', 'sms', filters] as const,
  smsStatus: () => ['admin', 'sms-status'] as const,
};

/**
 * The roots of the records' queries. Three features read records (the validators' lists, the back office's
 * Registros, the import): a change made in one refreshes, by these roots, what the others show.
 */
export const recordsQueryRoots = {
  /** The validators' lists and progress: ['records', slug, …]. */
  validation: ['records'] as const,
  /** Registros in the back office: ['records-admin', …]. */
  admin: ['records-admin'] as const,
};

/** A query string without the empty values. */
export function queryString(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
