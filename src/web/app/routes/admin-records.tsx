import { Route, Routes } from 'react-router';
import { useRecordsDepartments } from '#web/features/records-admin/api/get-records-departments';
import RecordsAdminPage from '#web/features/records-admin/components/records-admin-page';
import { recordsExportUrl } from '#web/features/records-import/api/export-records';
import { RecordsImport } from '#web/features/records-import/components/records-import';
import { useDocumentTitle } from '#web/platform/lib/use-document-title';
import { paths } from '#web/platform/paths';
import { ErrorNotice, Spinner } from '#web/platform/ui/page';

/**
 * Registros: the back office's list of records (records-admin) and, beside it, the CSV import and the
 * export link (records-import), both with the municipalities and parishes of the list.
 */
export default function RecordsSection() {
  useDocumentTitle('Registros · Administración');
  const departments = useRecordsDepartments();
  if (departments.isPending) return <Spinner />;
  if (departments.isError) {
    return <ErrorNotice message={departments.error.message} onRetry={() => departments.refetch()} />;
  }
  return (
    <Routes>
      <Route index element={<RecordsAdminPage departments={departments.data.items} exportUrl={recordsExportUrl} />} />
      <Route
        path="importar"
        element={<RecordsImport departments={departments.data.items} backTo={paths.adminRecords} />}
      />
    </Routes>
  );
}
