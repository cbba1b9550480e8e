import type { RecordsAdminFilter } from '#shared/platform/record-fields';

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
  all: ['records-admin'] as const,
  departments: () => ['records-admin', 'departments'] as const,
  lists: () => ['records-admin', 'list'] as const,
  list: (filters: RecordsAdminFilters) => ['records-admin', 'list', filters] as const,
  validation: ['records'] as const,
};
