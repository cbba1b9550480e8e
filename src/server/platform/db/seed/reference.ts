import type { Db } from '#server/platform/db/database';
import { DEFAULT_RESULTS_DENOMINATOR, TIME_ZONE } from '#shared/platform/constants';
import { CANDIDATES, MUNICIPALITIES, STAFF_PAGES } from './departments.data';

export const DEFAULT_SETTINGS: Record<string, string> = {
  campaign_name: 'Comando Zulia',
  leader_name: 'Gabriela Urdaneta',
  results_denominator: String(DEFAULT_RESULTS_DENOMINATOR),
  time_zone: TIME_ZONE,
  logout_route: '/',
};

/**
 * Creates the reference data the app cannot run without. Idempotent: rows that exist are left as an
 * admin may have edited them; only missing ones are added.
 */
export async function seedReferenceData(db: Db, now: Date, campaignName?: string): Promise<void> {
  const at = now.toISOString();
  await db.kysely.transaction().execute(async (trx) => {
    const settings = { ...DEFAULT_SETTINGS, ...(campaignName ? { campaign_name: campaignName } : {}) };
    for (const [key, value] of Object.entries(settings)) {
      await trx
        .insertInto('settings')
        .values({ key, value, updated_at: at })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    }
    const departments = [...STAFF_PAGES, ...MUNICIPALITIES];
    for (const [position, d] of departments.entries()) {
      await trx
        .insertInto('departments')
        .values({ slug: d.slug, title: d.title, kind: d.kind, position, created_at: at })
        .onConflict((oc) => oc.column('slug').doNothing())
        .execute();
    }
    for (const [position, c] of CANDIDATES.entries()) {
      await trx
        .insertInto('candidates')
        .values({ code: c.code, name: c.name, colour: c.colour, photo_url: c.photoUrl, position })
        .onConflict((oc) => oc.column('code').doNothing())
        .execute();
    }
  });
}
