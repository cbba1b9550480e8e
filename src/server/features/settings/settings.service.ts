import type { Kysely } from 'kysely';
import { type Change, runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import type { Actor } from '#server/platform/session/identity';
import { readSecondFactorRequired } from '#server/platform/session/second-factor';
import {
  createSettingsRepository,
  parseMaxBytes,
  settingsAnswers,
} from '#server/platform/settings/settings.repository';
import { SECOND_FACTOR_SETTING } from '#shared/features/auth/second-factor';
import { PHOTO_SEND_ORIGINALS_SETTING } from '#shared/features/photos/photo-uploads';
import { PHOTO_MAX_BYTES_SETTING } from '#shared/features/photos/photos';
import { type AdminSettings, PHOTO_MAX_MB_BOUNDS } from '#shared/features/settings/settings';

const MB = 1024 * 1024;

/** Each editable setting: its key in the settings table and how its value is stored. */
const KEYS: { [K in keyof AdminSettings]: { key: string; store: (v: AdminSettings[K]) => string } } = {
  campaignName: { key: 'campaign_name', store: (v) => v },
  leaderName: { key: 'leader_name', store: (v) => v },
  resultsDenominator: { key: 'results_denominator', store: (v) => String(v) },
  logoutRoute: { key: 'logout_route', store: (v) => v },
  photoMaxMb: { key: PHOTO_MAX_BYTES_SETTING, store: (v) => String(v * MB) },
  photoSendOriginals: { key: PHOTO_SEND_ORIGINALS_SETTING, store: (v) => (v ? '1' : '0') },
  requireSecondFactorAdmins: { key: SECOND_FACTOR_SETTING, store: (v) => (v ? '1' : '0') },
};

/** The settings as the back office edits them, read through `db` (the database or a change's transaction). */
async function readAdminSettings(db: Kysely<Database>, secondFactorByDefault: boolean): Promise<AdminSettings> {
  const settings = createSettingsRepository(db);
  const [s, photoMaxBytes, sendOriginals, secondFactor] = await Promise.all([
    settings.readAll(),
    settings.get(PHOTO_MAX_BYTES_SETTING),
    settings.get(PHOTO_SEND_ORIGINALS_SETTING),
    readSecondFactorRequired(db, secondFactorByDefault),
  ]);
  const mb = Math.round(parseMaxBytes(photoMaxBytes) / MB);
  return {
    campaignName: s.campaignName,
    leaderName: s.leaderName,
    resultsDenominator: s.resultsDenominator,
    logoutRoute: s.logoutRoute,
    photoMaxMb: Math.min(PHOTO_MAX_MB_BOUNDS.max, Math.max(PHOTO_MAX_MB_BOUNDS.min, mb)),
    photoSendOriginals: sendOriginals === '1',
    requireSecondFactorAdmins: secondFactor,
  };
}

/**
 * The settings' use cases (docs/decisions/069): each change is one transaction with an audit row per
 * value changed, after which the kept settings are forgotten. Saved half-way, nothing is saved.
 */
export function createSettingsService(
  db: Kysely<Database>,
  clock: () => Date,
  options: { secondFactorByDefault?: boolean } = {},
) {
  const secondFactorByDefault = options.secondFactorByDefault ?? false;
  const change = <T>(work: (change: Change) => Promise<T>) => runChange(db, work, { forget: [settingsAnswers] });

  return {
    /** The settings as the back office shows them. */
    read: (): Promise<AdminSettings> => readAdminSettings(db, secondFactorByDefault),

    /** Saves the back office's settings: every value that changed, with its own audit row, or none. */
    save(input: AdminSettings, actor: Actor): Promise<AdminSettings> {
      const now = clock();
      return change(async ({ trx, audit }) => {
        const settings = createSettingsRepository(trx);
        const before = await readAdminSettings(trx, secondFactorByDefault);
        for (const field of Object.keys(KEYS) as (keyof AdminSettings)[]) {
          const value = input[field];
          if (value === undefined || value === before[field]) continue;
          const { key, store } = KEYS[field] as { key: string; store: (v: unknown) => string };
          await settings.set(key, store(value), now);
          await audit({
            actorEmail: actor.email,
            action: 'setting.update',
            target: key,
            ip: actor.ip,
            details: { from: before[field], to: value },
            at: now,
          });
        }
        return readAdminSettings(trx, secondFactorByDefault);
      });
    },

    /** One stored value by its key (those the back office does not edit, such as the demo's marker). */
    readValue: (key: string): Promise<string | undefined> => createSettingsRepository(db).get(key),

    /** Stores one value the back office does not edit (the demo's marker), with its audit row. */
    storeValue(key: string, value: string, actor: Actor): Promise<void> {
      const now = clock();
      return change(async ({ trx, audit }) => {
        await createSettingsRepository(trx).set(key, value, now);
        await audit({
          actorEmail: actor.email,
          action: 'setting.update',
          target: key,
          ip: actor.ip,
          details: { to: value },
          at: now,
        });
      });
    },
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
