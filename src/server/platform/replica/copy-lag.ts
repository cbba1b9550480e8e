/*
 * How far behind the off-machine copy is (decision 106), in seconds: how long ago the copy was last
 * known to hold everything this machine held. It is read from positions, never from another machine's
 * clock: at each look, where the local log has reached (SQLite: Litestream's shadow WAL; PostgreSQL: the
 * primary's WAL) and where the copy has (Litestream's replica WAL; the standby's replay position). Once
 * the copy's position passes the local position of a look, everything written before that look is in
 * the copy. Between looks nothing is known, so the lag errs long by at most one interval, never short.
 */

/** A place in a log: SQLite's (WAL index, offset) or PostgreSQL's LSN (one number). */
export type LogPosition = readonly bigint[];

export interface PositionSample {
  local: LogPosition;
  /** Where the copy has reached; undefined when no copy answers (Litestream down, no standby). */
  copy: LogPosition | undefined;
  /** Litestream's count of finished syncs (its `litestream_sync_count`); absent for PostgreSQL. */
  syncs?: bigint;
}

export function compareLogPositions(a: LogPosition, b: LogPosition): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0n;
    const y = b[i] ?? 0n;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export interface LagTracker {
  /** One look at both positions (undefined: neither could be read). */
  observe(at: Date, sample: PositionSample | undefined): void;
  /** Seconds of changes the copy may lack, as of `at`. */
  lagSeconds(at: Date): number;
  /** Whether the last look found a copy answering. */
  readonly copyAnswered: boolean;
}

/** `since`: when watching began; until a look whose position the copy holds, the lag counts from it. */
export function createLagTracker(since: Date): LagTracker {
  // Looks whose local position the copy had not reached yet, oldest first.
  let waiting: { at: number; position: LogPosition }[] = [];
  let heldAt = since.getTime();
  let copyAnswered = false;
  return {
    observe(at, sample) {
      copyAnswered = sample?.copy !== undefined;
      if (!sample) return;
      let newest = waiting.at(-1);
      // A new Litestream generation (or another cluster) starts its positions again: the looks before it are dropped.
      if (newest && compareLogPositions(sample.local, newest.position) < 0) {
        waiting = [];
        newest = undefined;
      }
      // Nothing written since the last look: that look's position stands for both.
      if (newest && compareLogPositions(sample.local, newest.position) === 0) newest.at = at.getTime();
      else waiting.push({ at: at.getTime(), position: sample.local });
      // Bounded while no copy answers: dropping a look only dates what it held by an earlier look.
      if (waiting.length > 1000) waiting = waiting.filter((_, i) => i % 2 === 0 || i === waiting.length - 1);
      const copy = sample.copy;
      if (!copy) return;
      const held = waiting.filter((look) => compareLogPositions(look.position, copy) <= 0);
      if (held.length > 0) heldAt = Math.max(heldAt, ...held.map((look) => look.at));
      waiting = waiting.filter((look) => compareLogPositions(look.position, copy) > 0);
    },
    lagSeconds(at) {
      return Math.max(0, (at.getTime() - heldAt) / 1000);
    },
    get copyAnswered() {
      return copyAnswered;
    },
  };
}
