import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from './schema';

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
 * PostgreSQL has no such counter across instances, so there nothing is cached (see decision 015).
 */
export interface AccessVersion {
  /** The current version; reading it also notices commits made by other connections. */
  (): number;
}

const ACCESS_TABLES = /"?\b(?:users|departments|department_members)\b"?/i;
const SESSIONS = /"?\bsessions\b"?/i;
// The only writes to sessions that cannot end one: a new row, and the idle expiry pushed forward.
const SESSION_KEEPS =
  /^\s*(?:insert\s+into\s+"?sessions"?\s|update\s+"?sessions"?\s+set\s+"?idle_expires_at"?\s*=\s*\?\s+where\s)/i;

const WRITE = /^\s*(?:insert|update|delete|replace|drop|alter|create)\b/i;

/** Whether running this statement may change an answer derived from the access tables. */
export function changesAccess(source: string): boolean {
  if (!WRITE.test(source)) return false;
  if (ACCESS_TABLES.test(source)) return true;
  return SESSIONS.test(source) && !SESSION_KEEPS.test(source);
}

/**
 * The access version of one SQLite connection: `bump()` is called after every write statement for
 * which `changesAccess` holds; `version()` adds the commits of other connections.
 */
export function createAccessVersion(sqlite: SQLite.Database) {
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  let lastSeen = dataVersion.get();
  let checkedAt = Date.now();
  let version = 0;
  return {
    bump(): void {
      version++;
    },
    version: (() => {
      // The pragma costs three system calls (a lock, an unlock and a stat): once per millisecond is
      // plenty to notice a command-line change before the next request that could follow it.
      const now = Date.now();
      if (now !== checkedAt) {
        checkedAt = now;
        const seen = dataVersion.get();
        if (seen !== lastSeen) {
          lastSeen = seen;
          version++;
        }
      }
      return version;
    }) as AccessVersion,
  };
}

const versions = new WeakMap<Kysely<Database>, AccessVersion>();

export function registerAccessVersion(db: Kysely<Database>, version: AccessVersion): void {
  versions.set(db, version);
}

/** The access version of a database, or undefined where answers must not be cached (PostgreSQL, a transaction). */
export function accessVersionOf(db: Kysely<Database>): AccessVersion | undefined {
  return versions.get(db);
}

const MAX_ENTRIES = 10_000;

/**
 * A read-through cache of answers derived from the access tables, valid while the access version
 * stands. A load that overlaps a change is returned but not kept. `keep` says which answers to keep
 * (a session cache keeps only live sessions, so made-up tokens cannot fill it); `fresh` rejects a kept
 * answer that has since expired by the clock.
 */
export function createAccessCache<Value>(
  db: Kysely<Database>,
  options: { keep?: (value: Value) => boolean; fresh?: (value: Value) => boolean } = {},
) {
  const version = accessVersionOf(db);
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
