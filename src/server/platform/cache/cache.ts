import type SQLite from 'better-sqlite3';
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';

/*
 * What the server keeps in memory between requests, in two ways and no other (decision 037):
 *
 * 1. Timed answers (`timedAnswers`): finished answers (the JSON of the public agenda, the notas and the
 *    validators' lists; the settings they are built from) kept for about a second. The service that
 *    writes what an answer shows forgets it right after its commit, so a change made through this
 *    process shows at once; one made elsewhere (another instance, the command line) within the second.
 *
 * 2. Versioned answers (`createAccessCache`, `createVersionedCache`): the session and access checks of
 *    every signed-in request and the results, kept while a change version stands. Only on SQLite,
 *    where the database itself says when something changed (`watchChanges`); on PostgreSQL nothing is
 *    kept this way.
 *
 * Neither looks at SQL text to decide what a write changed.
 */

// --- 1. Timed answers -----------------------------------------------------------------------------

export interface TimedAnswers<Value> {
  /**
   * The kept answer for `key` in `group`, or what `load` gives (run once however many ask for the same
   * key at the same time).
   */
  get(key: string, load: () => Promise<Value>, group?: string): Promise<Value>;
  /** Forgets a group's answers, or every answer. A load already under way is returned, never kept. */
  forget(group?: string): void;
  /** How many answers are held (expired ones included until they are dropped). */
  readonly size: number;
}

export interface TimedAnswersOptions {
  /** How long an answer is kept at most; each lives 80–100 % of it, so answers read together do not expire together. */
  ttlMs: number;
  /**
   * Past this many answers, everything is forgotten at once (memory stays bounded). Answers past their
   * time are dropped as new ones come, oldest first, so under a flood of different reads (pages each
   * asked once) the held answers are about those of the last time to live, not `maxEntries` old ones.
   */
  maxEntries: number;
}

export function createTimedAnswers<Value>(options: TimedAnswersOptions): TimedAnswers<Value> {
  const { ttlMs, maxEntries } = options;
  const entries = new Map<string, { value: Value; expiresAt: number }>();
  const loading = new Map<string, { generation: number; value: Promise<Value> }>();
  // A load keeps its answer only if no forget() touched its group since it started.
  const generations = new Map<string, number>();
  let everything = 0;
  const generationOf = (group: string) => everything + (generations.get(group) ?? 0);
  const idOf = (group: string, key: string) => `${group}\n${key}`;

  return {
    async get(key, load, group = '') {
      const id = idOf(group, key);
      const hit = entries.get(id);
      if (hit && Date.now() < hit.expiresAt) return hit.value;
      const generation = generationOf(group);
      const running = loading.get(id);
      if (running && running.generation === generation) return running.value;

      const value = load();
      loading.set(id, { generation, value });
      try {
        const loaded = await value;
        if (generation === generationOf(group)) {
          const now = Date.now();
          // The Map keeps insertion order: the first answers are the oldest.
          for (const [oldId, old] of entries) {
            if (old.expiresAt > now) break;
            entries.delete(oldId);
          }
          if (entries.size >= maxEntries) entries.clear();
          // Set anew at the end, so the order stays that of the loads.
          entries.delete(id);
          entries.set(id, { value: loaded, expiresAt: now + ttlMs * (0.8 + Math.random() * 0.2) });
        }
        return loaded;
      } finally {
        if (loading.get(id)?.value === value) loading.delete(id);
      }
    },

    get size() {
      return entries.size;
    },

    forget(group) {
      if (group === undefined) {
        everything++;
        entries.clear();
        return;
      }
      generations.set(group, (generations.get(group) ?? 0) + 1);
      const prefix = idOf(group, '');
      for (const id of entries.keys()) if (id.startsWith(prefix)) entries.delete(id);
    },
  };
}

/**
 * One set of timed answers per database (a process may open several: tests do), which its reader and
 * the service that writes find again: `const agendaAnswers = timedAnswers(...)`, then
 * `agendaAnswers(db).get(...)` in the route and `agendaAnswers(db).forget()` after the commit.
 */
export function timedAnswers<Value>(options: TimedAnswersOptions): (db: Kysely<Database>) => TimedAnswers<Value> {
  const byDatabase = new WeakMap<Kysely<Database>, TimedAnswers<Value>>();
  return (db) => {
    // A transaction's answers would be forgotten before its commit, and by nobody else.
    if (db.isTransaction) throw new Error('Timed answers belong to the database, not to a transaction');
    let answers = byDatabase.get(db);
    if (!answers) {
      answers = createTimedAnswers<Value>(options);
      byDatabase.set(db, answers);
    }
    return answers;
  };
}

/**
 * Sends a finished answer: JSON already checked against the route's response schema and serialised.
 * Fastify sends a JSON string as it is; the type provider only knows the schema's object type, hence
 * the cast.
 */
export function sendSerialized(reply: FastifyReply, body: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body as never);
}

// --- 2. Versioned answers -------------------------------------------------------------------------

/**
 * Every signed-in request asks the same two questions: is this session live, and may this user open
 * this department? On the embedded database the answers are kept in memory for as long as the
 * *access version* has not moved, and the version moves at once whenever an answer could have become
 * wrong:
 * - a write through this process to users, departments or department_members, or one that ends or
 *   shortens a session (a new session row, or its idle expiry pushed forward, makes no kept answer
 *   wrong). SQLite reports these rows itself, through temporary triggers on this connection
 *   (`ACCESS_TRIGGERS`), however the statement that wrote them is spelled;
 * - any commit by another connection to the same file (the command line, a second process), which
 *   SQLite reports through `PRAGMA data_version`, read at most once per millisecond.
 * The database stays the only authority: a revocation made here is seen by the very next request, one
 * made by another process within a millisecond.
 * The *data version* moves with every statement SQLite does not call read-only, and with every other
 * connection's commit: the results keep their totals while it stands.
 * PostgreSQL has no such counter across instances, so there nothing is kept (see decision 015).
 */
/** The current version; reading it also notices commits made by other connections. */
export type ChangeVersion = () => number;

const ACCESS_CHANGED = 'comando_access_changed';
const ACCESS_TABLES = ['users', 'departments', 'department_members'] as const;

/**
 * Temporary triggers: they live on this connection only (nothing in the schema, nothing for other
 * processes), fire for each row this connection writes, and call back into this process.
 */
const ACCESS_TRIGGERS = [
  ...ACCESS_TABLES.flatMap((table) =>
    (['insert', 'update', 'delete'] as const).map(
      (event) =>
        `create temp trigger if not exists ${ACCESS_CHANGED}_${table}_${event} after ${event} on main.${table} ` +
        `begin select ${ACCESS_CHANGED}(); end`,
    ),
  ),
  `create temp trigger if not exists ${ACCESS_CHANGED}_sessions_delete after delete on main.sessions ` +
    `begin select ${ACCESS_CHANGED}(); end`,
  // Any change to a session but its idle expiry moved forward (what every signed-in request may do).
  `create temp trigger if not exists ${ACCESS_CHANGED}_sessions_update after update on main.sessions ` +
    'when not (new.idle_expires_at >= old.idle_expires_at and new.expires_at is old.expires_at ' +
    'and new.user_id is old.user_id and new.token_hash is old.token_hash and new.id is old.id) ' +
    `begin select ${ACCESS_CHANGED}(); end`,
];

/**
 * A session that gave its second factor opens more than it did (migration 026): created once that
 * column exists, so a database opened before its migration still writes its sessions.
 */
const SECOND_FACTOR_TRIGGER =
  `create temp trigger if not exists ${ACCESS_CHANGED}_sessions_second_factor ` +
  'after update of second_factor on main.sessions when new.second_factor is not old.second_factor ' +
  `begin select ${ACCESS_CHANGED}(); end`;

/**
 * The change versions of one SQLite connection. `wrote()` is called after every statement that is not
 * read-only; `watchAccessTables()` once the access tables exist (it is safe to repeat). Until then the
 * access version is new at every reading, so nothing is kept.
 */
export function watchChanges(sqlite: SQLite.Database) {
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  let lastSeen = dataVersion.get();
  let checkedAt = Date.now();
  let elsewhere = 0;
  let accessWrites = 0;
  let dataWrites = 0;
  let watching = false;
  let unwatched = 0;
  sqlite.function(ACCESS_CHANGED, { deterministic: false }, () => {
    accessWrites++;
    return null;
  });
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
    watchAccessTables(): void {
      const tables = sqlite
        .prepare(`select count(*) from sqlite_master where type = 'table' and name in (?, ?, ?, ?)`)
        .pluck()
        .get(...ACCESS_TABLES, 'sessions');
      if (tables !== ACCESS_TABLES.length + 1) return;
      for (const trigger of ACCESS_TRIGGERS) sqlite.exec(trigger);
      const secondFactor = sqlite
        .prepare(`select count(*) from pragma_table_info('sessions') where name = 'second_factor'`)
        .pluck()
        .get();
      if (secondFactor === 1) sqlite.exec(SECOND_FACTOR_TRIGGER);
      watching = true;
    },
    wrote(): void {
      dataWrites++;
    },
    access: (): number => {
      // Negative and never repeated while unwatched: no kept answer ever matches it.
      if (!watching) return --unwatched;
      pollOtherConnections();
      return accessWrites + elsewhere;
    },
    data: (): number => {
      pollOtherConnections();
      return dataWrites + elsewhere;
    },
  };
}
export type ChangeWatch = ReturnType<typeof watchChanges>;

const watches = new WeakMap<Kysely<Database>, ChangeWatch>();

export function registerChangeWatch(db: Kysely<Database>, watch: ChangeWatch): void {
  watches.set(db, watch);
}

/** Called after migrations: the access tables exist now (or anew), so they are watched. */
export function watchAccessTables(db: Kysely<Database>): void {
  watches.get(db)?.watchAccessTables();
}

/** The access version of a database, or undefined where answers must not be kept (PostgreSQL, a transaction). */
export function accessVersionOf(db: Kysely<Database>): ChangeVersion | undefined {
  return watches.get(db)?.access;
}

/** A version that moves with every change to a database, or undefined where there is none (PostgreSQL). */
export function dataVersionOf(db: Kysely<Database>): ChangeVersion | undefined {
  return watches.get(db)?.data;
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
  let entriesVersion = Number.NaN;
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
