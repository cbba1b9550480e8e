import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { runChange } from '#server/platform/change/change';
import type { Db } from '#server/platform/db/database';
import type { Database } from '#server/platform/db/schema';
import type { DatabaseEpochsTable } from '#server/platform/db/schema-copies';
import { PRIVATE_FILE_MODE } from '#server/platform/lib/private-files';
import type { DatabaseEpoch } from '#shared/features/election/election';
import { createCopiesRepository, type EpochRow } from './copies.repository';

/*
 * The database's epoch (decision 106). A database restored from a copy is not the one phones talked to:
 * what it lacks is what was acknowledged after the copy's point. Each restore starts a new epoch, with
 * that point, and phones read the epoch in the day's status (GET /api/election) to know when to ask.
 *
 * A restore is recorded by the command that does it (`npm run cli -- restore`, with or without
 * `--desde-replica`), and noticed at start when it was done another way: SQLite's file has beside it
 * `comando.epoch`, the id of the database this folder holds, which no copy carries (Litestream copies
 * the database, a backup copies the database): a database whose last epoch names another id, or a
 * folder without the file, was brought here from a copy. PostgreSQL's id is the cluster's system
 * identifier and timeline: a promoted standby starts a new timeline.
 */

/** Beside SQLite's file: the id of the database this folder holds. */
export const EPOCH_MARKER = 'comando.epoch';

type Cause = DatabaseEpochsTable['cause'];

const present = (row: EpochRow): DatabaseEpoch => ({
  number: row.epoch,
  startedAt: row.started_at,
  restoredUntil: row.restored_until,
});

const markerOf = (db: Db) => (db.file ? path.join(path.dirname(db.file), EPOCH_MARKER) : undefined);

function readMarker(db: Db): string | undefined {
  const file = markerOf(db);
  if (!file || !fs.existsSync(file)) return undefined;
  return fs.readFileSync(file, 'utf8').trim() || undefined;
}

function writeMarker(db: Db, origin: string): void {
  const file = markerOf(db);
  if (file) fs.writeFileSync(file, `${origin}\n`, { mode: PRIVATE_FILE_MODE });
}

/** PostgreSQL: '<system identifier>/<timeline>', or undefined where the role may not read them. */
async function postgresOrigin(db: Db): Promise<string | undefined> {
  try {
    const { rows } = await sql<{ id: string; wal: string }>`
      select (select system_identifier::text from pg_control_system()) as id,
             pg_walfile_name(pg_current_wal_lsn()) as wal`.execute(db.kysely);
    const row = rows[0];
    return row ? `${row.id}/${Number.parseInt(row.wal.slice(0, 8), 16)}` : undefined;
  } catch {
    return undefined;
  }
}

async function addEpoch(db: Db, row: EpochRow, audited: { actorEmail: string } | undefined): Promise<void> {
  await runChange(db.kysely, async ({ trx, audit }) => {
    await createCopiesRepository(trx).addEpoch(row);
    if (audited) {
      await audit({
        actorEmail: audited.actorEmail,
        action: 'database.epoch',
        target: `epoch:${row.epoch}`,
        details: { cause: row.cause, restoredUntil: row.restored_until },
        at: new Date(row.started_at),
      });
    }
  });
}

/** The epoch now (the first one is recorded at the first start). */
export async function currentEpoch(db: Kysely<Database>): Promise<DatabaseEpoch | null> {
  const row = await createCopiesRepository(db).latestEpoch();
  return row ? present(row) : null;
}

/**
 * At each start: the epoch this database is in, a new one when it is not the database its last epoch
 * names (restored by hand, by `litestream restore`, a promoted standby).
 */
export async function settleEpochAtStart(db: Db, now: Date): Promise<DatabaseEpoch> {
  const copies = createCopiesRepository(db.kysely);
  const latest = await copies.latestEpoch();
  const found = db.dialect === 'sqlite' ? readMarker(db) : await postgresOrigin(db);
  if (latest && (found === latest.origin || (db.dialect === 'postgres' && found === undefined))) {
    return present(latest);
  }
  const origin = db.dialect === 'sqlite' ? randomUUID() : (found ?? 'postgres');
  const row: EpochRow = latest
    ? {
        epoch: latest.epoch + 1,
        started_at: now.toISOString(),
        cause: db.dialect === 'sqlite' ? 'restaurada' : 'promovida',
        origin,
        restored_until: await copies.lastChangeAt(),
      }
    : { epoch: 1, started_at: now.toISOString(), cause: 'nueva', origin, restored_until: null };
  try {
    await addEpoch(db, row, latest ? { actorEmail: 'sistema' } : undefined);
  } catch (error) {
    // Two instances on one PostgreSQL starting together: the other one recorded it.
    const again = await copies.latestEpoch();
    if (!again || again.epoch < row.epoch) throw error;
    return present(again);
  }
  writeMarker(db, origin);
  return present(row);
}

/** After a restore from a copy: a new epoch, from the point the copy reached. */
export async function recordRestoredEpoch(
  db: Db,
  restore: { cause: Extract<Cause, 'copia' | 'replica'>; restoredUntil: string | null; now: Date; actorEmail: string },
): Promise<DatabaseEpoch> {
  const copies = createCopiesRepository(db.kysely);
  const latest = await copies.latestEpoch();
  const origin = db.dialect === 'sqlite' ? randomUUID() : ((await postgresOrigin(db)) ?? 'postgres');
  const row: EpochRow = {
    epoch: (latest?.epoch ?? 0) + 1,
    started_at: restore.now.toISOString(),
    cause: restore.cause,
    origin,
    restored_until: restore.restoredUntil ?? (await copies.lastChangeAt()),
  };
  await addEpoch(db, row, { actorEmail: restore.actorEmail });
  writeMarker(db, origin);
  return present(row);
}
