import type { Db } from '#server/platform/db/database';

export interface DemoContext {
  db: Db;
  now: Date;
  /** Today in America/Caracas (YYYY-MM-DD). */
  today: string;
  /** Lines printed once to the console at the first start (demo accounts, for example). */
  announce: (line: string) => void;
}

/** One feature's share of the demo content. */
export type DemoStep = (ctx: DemoContext) => Promise<void>;
