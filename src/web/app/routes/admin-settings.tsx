import { PurgePersonalData } from '#web/features/records-admin/components/purge-personal-data';
import SettingsAdminPage from '#web/features/settings/components/settings-admin-page';

/** Ajustes, and below it the purge of personal data of the records back office. */
export default function SettingsSection() {
  return (
    <div className="flex flex-col gap-6">
      <SettingsAdminPage />
      <PurgePersonalData />
    </div>
  );
}
