import AuditAdminPage from '#web/features/audit/components/audit-admin-page';
import { useDepartments } from '#web/features/departments/api/get-departments';

/** Auditoría, with the department choices of the departments feature. */
export default function AuditSection() {
  const departments = useDepartments();
  return <AuditAdminPage departments={departments.data?.items ?? []} />;
}
