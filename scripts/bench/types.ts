import type autocannon from 'autocannon';
import type { Db } from '#server/platform/db/database';

/** One measured request pattern. */
export interface BenchCase {
  name: string;
  connections: number;
  /** p99 target in milliseconds. */
  targetP99: number;
  /** Optional throughput floor (requests per second). */
  targetRps?: number;
  /** Builds the autocannon requests; may sign in or create data first through the API. */
  requests: (origin: string) => Promise<autocannon.Request[]> | autocannon.Request[];
}

/**
 * A group of cases run against one server on its own throwaway SQLite database. Each feature keeps its
 * suite in scripts/bench/<feature>.bench.ts, exported as `suite`.
 */
export interface BenchSuite {
  name: string;
  /**
   * Fills the database (already migrated, with reference data) before the server starts; `dataDir` is the
   * server's data folder (where a suite puts files, such as photos, the server will find).
   */
  seed?: (db: Db, now: Date, dataDir: string) => Promise<void>;
  cases: BenchCase[];
  /** Extra environment for the server. */
  env?: Record<string, string>;
  /**
   * Starts the database the suite runs on when it is not the throwaway SQLite one (a PostgreSQL primary
   * and its standby) and answers its URL: the database is seeded there and the server gets it as
   * `DATABASE_URL`.
   */
  database?: () => Promise<string>;
  /** Stops what the suite started (stand-ins, clusters) and removes its folders: at the end, also on failure. */
  teardown?: () => Promise<void>;
  /** Seconds each case is measured (after its one-second warm-up); BENCH_SECONDS or 5 when absent. */
  seconds?: number;
  /** Samples the server's resident memory every 100 ms over the cases and adds its peak to the table. */
  peakMemory?: boolean;
  /**
   * Runs after the cases with the server still up (memory, streams...); returns table rows. `dataDir`
   * is the server's data folder (its SQLite database), to count what it stored.
   */
  extra?: (origin: string, serverPid: number, dataDir: string) => Promise<Record<string, unknown>[]>;
}
