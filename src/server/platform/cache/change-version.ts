import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';

/**
 * Every signed-in request asks the same two questions: is this session live, and may this user open
 * this department? On the embedded database the answers are kept in memory for as long as the
 * *access version* has not moved, and the version moves at once whenever an answer could have become
 * wrong:
 * - a write through this process to users, departments or department_members, or one that ends
 *   sessions (a session row is only ever inserted, extended or deleted; a cached "live" answer is
 *   made wrong only by a delete);
 * - any commit by another connection to the same file (the command line, a second process), which
 *   SQLite reports through `PRAGMA data_version`, read at most once per millisecond.
 * The database stays the only authority: a revocation made here is seen by the very next request, one
 * made by another process within a millisecond.
 * The *data version* moves with every write and every other connection's commit: the results keep their
 * totals while it stands.
 * PostgreSQL has no such counter across instances, so there nothing is kept (see decision 015).
 */
export interface ChangeVersion {
  /** The current version; reading it also notices commits made by other connections. */
  (): number;
}

const WRITE = /^\s*(?:insert|update|delete|replace|drop|alter|create)\b/i;
const ACCESS_TABLES = /"?\b(?:users|departments|department_members)\b"?/i;
const SESSIONS = /"?\bsessions\b"?/i;
// The only writes to sessions that cannot end one: a new row, and the idle expiry pushed forward.
const SESSION_KEEPS =
  /^\s*(?:insert\s+into\s+"?sessions"?\s|update\s+"?sessions"?\s+set\s+"?idle_expires_at"?\s*=\s*\?\s+where\s)/i;

/** Whether running this statement may change an answer derived from the access tables. */
export function changesAccess(source: string): boolean {
  if (!writes(source)) return false;
  if (ACCESS_TABLES.test(source)) return true;
  return SESSIONS.test(source) && !SESSION_KEEPS.test(source);
}

/** Whether a statement writes (and so may change what a kept answer says). */
export function writes(source: string): boolean {
  return WRITE.test(source);
}

/**
 * The versions of one SQLite connection. `wrote(changedAccess)` is called after every writing
 * statement runs, with `changesAccess` of its source; `access()` moves with the writes that changed
 * access, `data()` with every write; both move with the commits of other connections.
 */
export function createChangeVersions(sqlite: SQLite.Database) {
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  let lastSeen = dataVersion.get();
  let checkedAt = Date.now();
  let elsewhere = 0;
  let accessWrites = 0;
  let dataWrites = 0;
  const pollOtherConnections = () => {
    // The pragma costs three system calls (a lock, an unlock and a stat): once per millisecond is
    // plenty to notice a command-line change before the next request that could follow it.
    const now = Date.now();
    if (now === checkedAt) return;
    checkedAt = now;
    const seen = dataVersion.get();
    if (seen !== lastSeen) {
      lastSeen = seen;
      elsewhere++;
    }
  };
  return {
    wrote(changedAccess: boolean): void {
      dataWrites++;
      if (changedAccess) accessWrites++;
    },
    access: (() => {
      pollOtherConnections();
      return accessWrites + elsewhere;
    }) as ChangeVersion,
    data: (() => {
      pollOtherConnections();
      return dataWrites + elsewhere;
    }) as ChangeVersion,
  };
}

const accessVersions = new WeakMap<Kysely<Database>, ChangeVersion>();
const dataVersions = new WeakMap<Kysely<Database>, ChangeVersion>();

export function registerChangeVersions(
  db: Kysely<Database>,
  versions: { access: ChangeVersion; data: ChangeVersion },
): void {
  accessVersions.set(db, versions.access);
  dataVersions.set(db, versions.data);
}

/** The access version of a database, or undefined where answers must not be kept (PostgreSQL, a transaction). */
export function accessVersionOf(db: Kysely<Database>): ChangeVersion | undefined {
  return accessVersions.get(db);
}

/** A version that moves with every change to a database, or undefined where there is none (PostgreSQL). */
export function dataVersionOf(db: Kysely<Database>): ChangeVersion | undefined {
  return dataVersions.get(db);
}

const MAX_ENTRIES = 10_000;

/**
 * A read-through cache valid while `version` stands; without a version (PostgreSQL) every call loads.
 * A load that overlaps a change is returned but not kept. `keep` says which answers to keep (a session
 * cache keeps only live sessions, so made-up tokens cannot fill it); `fresh` rejects a kept answer that
 * has since expired by the clock.
 */
export function createVersionedCache<Value>(
  version: ChangeVersion | undefined,
  options: { keep?: (value: Value) => boolean; fresh?: (value: Value) => boolean } = {},
) {
  const entries = new Map<string, Value>();
  let entriesVersion = -1;
  return async (key: string, load: () => Promise<Value>): Promise<Value> => {
    if (!version) return load();
    const before = version();
    if (before !== entriesVersion) {
      entries.clear();
      entriesVersion = before;
    }
    const hit = entries.get(key);
    if (hit !== undefined && (!options.fresh || options.fresh(hit))) return hit;
    const value = await load();
    if (version() === before && (!options.keep || options.keep(value))) {
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(key, value);
    }
    return value;
  };
}

/** Answers derived from the access tables, kept while the access version stands. */
export const createAccessCache = <Value>(
  db: Kysely<Database>,
  options?: { keep?: (value: Value) => boolean; fresh?: (value: Value) => boolean },
) => createVersionedCache<Value>(accessVersionOf(db), options);
