import EvidenceKeyCard from '#web/features/evidence/components/evidence-key-card';
import SettingsAdminPage from '#web/features/settings/components/settings-admin-page';

/** Ajustes, with the fingerprint of the evidence packages' key. */
export default function SettingsSection() {
  return (
    <div className="flex flex-col gap-6">
      <SettingsAdminPage />
      <EvidenceKeyCard />
    </div>
  );
}
