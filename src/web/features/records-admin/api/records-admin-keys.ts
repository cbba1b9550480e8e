import type { RecordsAdminFilter } from '#shared/platform/record-fields';
import { recordsQueryRoots } from '#web/platform/lib/query-keys';

export interface RecordsAdminFilters {
  /** A municipality's slug, or '' for every municipality and parish. */
  department: string;
  q: string;
  status: RecordsAdminFilter;
}

/**
 * Query keys of the records back office. A change also refreshes the validators' lists and progress
 * (['records', slug]) that this browser may have loaded.
 */
export const recordsAdminKeys = {
  all: recordsQueryRoots.admin,
  departments: () => [...recordsQueryRoots.admin, 'departments'] as const,
  lists: () => [...recordsQueryRoots.admin, 'list'] as const,
  list: (filters: RecordsAdminFilters) => [...recordsQueryRoots.admin, 'list', filters] as const,
  candidates: () => [...recordsQueryRoots.admin, 'candidates'] as const,
  validation: recordsQueryRoots.validation,
};
