import { compareLogPositions, type LogPosition, type PositionSample } from './copy-lag';

/*
 * Up to when the off-machine copy surely holds what was committed here (decision 135): the instant
 * behind 'Asegurado' on the phones. Stricter than the lag (copy-lag.ts), which trusts the local position
 * read at a look: Litestream's shadow WAL follows the real one by its monitor interval, and a Litestream
 * that stopped syncing would show a shadow WAL the replica has reached while the database moved on.
 *
 * - PostgreSQL: the primary's WAL position read at a look covers every commit before that look.
 * - SQLite: a look is covered only by the shadow WAL read at a later look once Litestream has finished
 *   two syncs since (`litestream_sync_count`): the second began after the first look, and a sync copies
 *   the whole WAL as it stands when it begins.
 * Once the copy's position reaches that position, what was committed before the look is in the copy.
 */

export interface SecuredTracker {
  /** One look; `syncs`: Litestream's sync count at it (undefined: the local position covers the look). */
  observe(at: Date, sample: PositionSample | undefined): void;
  /** The latest instant before which every commit is in the copy; null until one is known. */
  readonly securedUntil: Date | null;
}

export function createSecuredTracker(): SecuredTracker {
  // Looks not yet covered by a shadow position (Litestream): their time and sync count.
  let uncovered: { at: number; syncs: bigint }[] = [];
  // Looks covered by a local position the copy has not reached yet.
  let waiting: { at: number; position: LogPosition }[] = [];
  let secured: number | null = null;
  return {
    observe(at, sample) {
      if (!sample) return;
      const time = at.getTime();
      const newest = waiting.at(-1);
      // A new Litestream generation or process: positions and counts start again.
      if (newest && compareLogPositions(sample.local, newest.position) < 0) waiting = [];
      if (sample.syncs === undefined) {
        waiting.push({ at: time, position: sample.local });
      } else {
        const syncs = sample.syncs;
        uncovered = uncovered.filter((look) => look.syncs <= syncs);
        const covered = uncovered.filter((look) => syncs >= look.syncs + 2n);
        const latest = covered.at(-1);
        if (latest) waiting.push({ at: latest.at, position: sample.local });
        uncovered = uncovered.filter((look) => syncs < look.syncs + 2n);
        uncovered.push({ at: time, syncs });
        if (uncovered.length > 1000) uncovered = uncovered.slice(-1000);
      }
      if (waiting.length > 1000) waiting = waiting.filter((_, i) => i % 2 === 1 || i === waiting.length - 1);
      const copy = sample.copy;
      if (!copy) return;
      for (const look of waiting) {
        if (compareLogPositions(look.position, copy) <= 0) secured = Math.max(secured ?? look.at, look.at);
      }
      waiting = waiting.filter((look) => compareLogPositions(look.position, copy) > 0);
    },
    get securedUntil() {
      return secured === null ? null : new Date(secured);
    },
  };
}
