import { createElectionRepository } from '#server/core/election/election.repository';
import type { Db } from '#server/platform/db/database';
import type { ElectionPhase } from '#shared/features/election/election';

/** Puts the day in a phase as test data (no audit row): what the Jornada section's change would store. */
export async function setElectionPhase(
  db: Db,
  phase: ElectionPhase,
  now: Date,
  extra: { closesAt?: string | null; closedAt?: string | null; graceHours?: number } = {},
): Promise<void> {
  await createElectionRepository(db.kysely).save({
    phase,
    closes_at: extra.closesAt ?? null,
    closed_at: extra.closedAt ?? (phase === 'cerrada' ? now.toISOString() : null),
    grace_hours: extra.graceHours ?? 12,
    changed_at: now.toISOString(),
    changed_by: null,
    reason: null,
  });
}
