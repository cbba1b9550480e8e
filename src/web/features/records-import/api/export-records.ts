import type { RecordsAdminFilter } from '#shared/platform/record-fields';

/**
 * The CSV download of a municipality's records (UTF-8 with BOM, for Excel). A plain link: the browser
 * downloads it with the session cookie, however large it is.
 */
export const recordsExportUrl = (department: string, status: RecordsAdminFilter) =>
  `/api/admin/records/export.csv?${new URLSearchParams({ department, status })}`;
