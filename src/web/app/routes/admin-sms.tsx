import { useDepartments } from '#web/features/departments/api/get-departments';
import SmsMessagesPage from '#web/features/sms/components/sms-messages-page';

/** Mensajes, with the municipalities and parishes of the departments feature for its filter. */
export default function SmsSection() {
  const departments = useDepartments();
  const municipalities = (departments.data?.items ?? []).filter((d) => d.kind === 'municipality');
  return <SmsMessagesPage departments={municipalities} />;
}
