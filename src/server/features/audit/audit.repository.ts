import { type Kysely, sql } from 'kysely';
import type { AuditRow } from '#server/platform/audit/audit.repository';
import type { Database } from '#server/platform/db/schema';
import { containsPattern } from '#server/platform/db/sql';
import { PERSONAL_DATA_ACTIONS, PERSONAL_DATA_DOWNLOAD, PERSONAL_DATA_FILTER } from '#shared/features/audit/audit';

export interface AuditFilter {
  /** Part of the e-mail of who acted or of the target. */
  person?: string | undefined;
  /** Exact action, or a family ending in '*'. */
  action?: string | undefined;
  department?: string | undefined;
  /** Instants (ISO, UTC): from included, until excluded. */
  fromIso?: string | undefined;
  untilIso?: string | undefined;
}

const COLUMNS = [
  'id',
  'at',
  'actor_email',
  'action',
  'department_slug',
  'target',
  'ip',
  'details',
  'seq',
  'prev_hash',
  'hash',
] as const;

export function createAdminAuditRepository(db: Kysely<Database>) {
  const filtered = (f: AuditFilter) => {
    let query = db.selectFrom('audit_log');
    if (f.person) {
      const pattern = containsPattern(f.person);
      query = query.where((eb) =>
        eb.or([
          eb(sql`lower(actor_email)`, 'like', sql`${pattern} escape '\\'`),
          eb(sql`lower(target)`, 'like', sql`${pattern} escape '\\'`),
        ]),
      );
    }
    if (f.action === PERSONAL_DATA_FILTER) {
      // Every look at names and phones: a phone shown, an export that holds them, a purge (decision 081).
      query = query.where((eb) =>
        eb.or([
          eb('action', 'in', PERSONAL_DATA_ACTIONS),
          eb.and([eb('action', '=', 'results.download'), eb('target', '=', PERSONAL_DATA_DOWNLOAD)]),
        ]),
      );
    } else if (f.action?.endsWith('*')) {
      const prefix = f.action.slice(0, -1).replace(/[\\%_]/g, (c) => `\\${c}`);
      query = query.where(sql<boolean>`action like ${`${prefix}%`} escape '\\'`);
    } else if (f.action) {
      query = query.where('action', '=', f.action);
    }
    if (f.department) query = query.where('department_slug', '=', f.department);
    if (f.fromIso) query = query.where('at', '>=', f.fromIso);
    if (f.untilIso) query = query.where('at', '<', f.untilIso);
    return query;
  };

  return {
    /** Newest first. */
    async page(f: AuditFilter, limit: number, offset: number): Promise<AuditRow[]> {
      return filtered(f).select(COLUMNS).orderBy('id', 'desc').limit(limit).offset(offset).execute();
    },

    async count(f: AuditFilter): Promise<number> {
      const row = await filtered(f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Newest first, after a keyset cursor (the last id read): exports read page by page. */
    async exportPage(f: AuditFilter, beforeId: number | null, limit: number): Promise<AuditRow[]> {
      let query = filtered(f).select(COLUMNS);
      if (beforeId !== null) query = query.where('id', '<', beforeId);
      return query.orderBy('id', 'desc').limit(limit).execute();
    },
  };
}
