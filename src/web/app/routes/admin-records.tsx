import { Route, Routes } from 'react-router';
import { electionMessages } from '#shared/features/election/election';
import { atTime, formatTime } from '#shared/platform/format';
import { useElection } from '#web/features/election/api/get-election';
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
  const election = useElection();
  // What the server refuses in this phase (decisions 078, 079): correcting votes, voiding, restoring.
  const day = election.data;
  const locked =
    day?.phase === 'cerrada'
      ? `La jornada cerró${day.closedAt ? ` ${atTime(formatTime(new Date(day.closedAt)))}` : ''}: para corregir votos, anular o restaurar registros, reábrela en Jornada con un motivo.`
      : day?.phase === 'simulacro'
        ? electionMessages.drillNoAdminChanges
        : undefined;
  if (departments.isPending) return <Spinner />;
  if (departments.isError) {
    return <ErrorNotice message={departments.error.message} onRetry={() => departments.refetch()} />;
  }
  return (
    <Routes>
      <Route
        index
        element={<RecordsAdminPage departments={departments.data.items} exportUrl={recordsExportUrl} locked={locked} />}
      />
      <Route
        path="importar"
        element={<RecordsImport departments={departments.data.items} backTo={paths.adminRecords} />}
      />
    </Routes>
  );
}
