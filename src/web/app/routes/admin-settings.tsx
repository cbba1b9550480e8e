import EvidenceKeyCard from '#web/features/evidence/components/evidence-key-card';
import { PurgePersonalData } from '#web/features/records-admin/components/purge-personal-data';
import SettingsAdminPage from '#web/features/settings/components/settings-admin-page';

/** Ajustes, the fingerprint of the evidence packages' key, and the purge of personal data. */
export default function SettingsSection() {
  return (
    <div className="flex flex-col gap-6">
      <SettingsAdminPage />
      <EvidenceKeyCard />
      <PurgePersonalData />
    </div>
  );
}
