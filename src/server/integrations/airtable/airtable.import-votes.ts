// The votes part of an Airtable import: votes Airtable has and Comando does not, cast through the vote service.
import { createVoteWriter } from '#server/features/records/records.service';
import { HttpError, isRefusal, type RefusalName } from '#server/platform/http/errors';
import type { ImportTarget } from './airtable.import-records';
import { AIRTABLE_IMPORT_USER, type RecordsRun, warn } from './airtable.import-report';

/** A vote's refusals that leave Comando's record as it is, without a warning: Comando's record stands. */
const COMANDO_STANDS: RefusalName[] = ['already_voted', 'voided', 'preparing', 'closed'];

/** Votes handed to the vote writer together (grouped into one commit on SQLite). */
const VOTE_BATCH = 200;

/**
 * Each vote Airtable has for a record Comando has not seen voted goes through the vote service (counters,
 * audit), as a validator's would: Comando is the source of truth for votes, so a vote cast in Comando
 * meanwhile stands.
 */
export async function importVotes(
  run: RecordsRun,
  targets: ImportTarget[],
  dialect: 'sqlite' | 'postgres',
): Promise<void> {
  const { progress, report, now } = run;
  const votes = targets.filter(({ row, record }) => row.voteCodes !== null && record.voted_at === null);
  if (votes.length === 0) return;
  const writer = createVoteWriter(run.db, dialect);
  progress.phase('Votos', votes.length);
  try {
    for (let i = 0; i < votes.length; i += VOTE_BATCH) {
      const batch = votes.slice(i, i + VOTE_BATCH);
      const results = await Promise.allSettled(
        batch.map(({ row, record }) => {
          const department = run.municipalities.get(record.department_id) as { id: number; slug: string };
          return writer.cast({
            department,
            recordId: record.id,
            codes: row.voteCodes as string[],
            user: AIRTABLE_IMPORT_USER,
            ip: null,
            now: now(),
          });
        }),
      );
      results.forEach((result, j) => {
        const { row, isNew } = batch[j] as (typeof batch)[number];
        if (result.status === 'fulfilled') {
          report.records.votes++;
          if (!isNew) run.changed.add(row.sourceId);
          return;
        }
        const error = result.reason;
        if (!(error instanceof HttpError)) throw error;
        // Voted in Comando meanwhile (or voided there, or the day takes no vote now): Comando's record stands.
        if (!isRefusal(error, ...COMANDO_STANDS)) warn(run, row, `voto ${row.voteCodes?.join(',')}: ${error.message}`);
      });
      progress.advance(batch.length);
    }
  } finally {
    progress.end();
  }
}
