import AuditAdminPage from '#web/features/audit/components/audit-admin-page';
import { useDepartments } from '#web/features/departments/api/get-departments';
import ChainPanel from '#web/features/evidence/components/chain-panel';

/** Auditoría, with the department choices of the departments feature and the audit chain's panel. */
export default function AuditSection() {
  const departments = useDepartments();
  const items = departments.data?.items ?? [];
  return (
    <div className="flex flex-col gap-6">
      <ChainPanel municipalities={items.filter((d) => d.kind === 'municipality')} />
      <AuditAdminPage departments={items} />
    </div>
  );
}
