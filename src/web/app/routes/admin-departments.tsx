import DepartmentsAdminPage from '#web/features/departments/components/departments-admin-page';
import { BulkAccessForm } from '#web/features/people/components/bulk-access-form';

/** Departamentos, whose dialog holds the people feature's pasted-list form for that department. */
export default function DepartmentsSection() {
  return (
    <DepartmentsAdminPage
      bulkAccess={(department) => <BulkAccessForm departments={[department]} fixedSlug={department.slug} />}
    />
  );
}
