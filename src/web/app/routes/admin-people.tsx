import { useDepartments } from '#web/features/departments/api/get-departments';
import PeopleAdminPage from '#web/features/people/components/people-admin-page';

/** Personas, with the department choices of the departments feature. */
export default function PeopleSection() {
  const departments = useDepartments();
  return <PeopleAdminPage departments={departments.data?.items ?? []} />;
}
