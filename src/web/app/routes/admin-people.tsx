import { useAuthProvider } from '#web/features/auth/api/get-auth-provider';
import { useDepartments } from '#web/features/departments/api/get-departments';
import PeopleAdminPage from '#web/features/people/components/people-admin-page';

/**
 * Personas, with the department choices of the departments feature and, from the sign-in feature,
 * whether passwords are this server's (with Firebase Auth, no Comando password is asked or reset).
 */
export default function PeopleSection() {
  const departments = useDepartments();
  const provider = useAuthProvider();
  return (
    <PeopleAdminPage departments={departments.data?.items ?? []} passwordsHere={provider.data?.provider === 'local'} />
  );
}
