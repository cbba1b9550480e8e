import type { Kysely } from 'kysely';

const FIELDS = ['comunidad', 'nombre', 'ubch', 'telefono'] as const;
type Fields = Partial<Record<(typeof FIELDS)[number] | 'department', unknown>>;

/** What a record.create or record.update row keeps from now on: ids and field names (decision 081). */
export function withoutPersonalData(action: string, details: string | null): string | null {
  if (details === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(details);
  } catch {
    return details;
  }
  if (typeof parsed !== 'object' || parsed === null) return details;
  if (action === 'record.create') {
    return JSON.stringify({ fields: FIELDS.filter((f) => f in parsed) });
  }
  if (action === 'record.void' || action === 'record.restore') {
    // The record's fields beside the void's or restore's own: the record id (the row's target) names it.
    const kept = Object.fromEntries(
      Object.entries(parsed).filter(([key]) => !(FIELDS as readonly string[]).includes(key)),
    );
    return JSON.stringify(kept);
  }
  const { before = {}, after = {} } = parsed as { before?: Fields; after?: Fields };
  if (!('before' in parsed) && !('after' in parsed)) return details;
  return JSON.stringify({
    department: { from: before.department ?? null, to: after.department ?? null },
    changed: FIELDS.filter((f) => before[f] !== after[f]),
  });
}

/**
 * Audit rows of records created or edited by hand held the person's name and phone in their details.
 * From now on they hold field names only (records-admin.service.ts); this rewrites the rows written
 * before, once, so that no audit row holds a name or a phone and the purge never has to touch the log.
 */
export function auditWithoutPersonalDataMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const log = db as Kysely<{ audit_log: { id: number; action: string; details: string | null } }>;
      const rows = await log
        .selectFrom('audit_log')
        .select(['id', 'action', 'details'])
        .where('action', 'in', ['record.create', 'record.update', 'record.void', 'record.restore'])
        .execute();
      for (const row of rows) {
        const details = withoutPersonalData(row.action, row.details);
        if (details !== row.details)
          await log.updateTable('audit_log').set({ details }).where('id', '=', row.id).execute();
      }
    },
  };
}
