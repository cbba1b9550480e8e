import { type DeviceReport, type DeviceReportAnswer, FIELD_REPORT_MAX_ITEMS } from '#shared/features/field/field';
import { voteFingerprint } from '#shared/platform/era';
import { realTimers, type Timers } from '#web/platform/lib/timers';
import type { AttemptOutcome, Outbox } from './outbox';
import { isWaiting, type OutboxItem } from './outbox-item';

/** What the phone remembers between pages about its sends: kept in localStorage. */
export interface SendHistory {
  lastSuccessAt: number | null;
  lastError: { message: string; at: number } | null;
}

export interface FieldReporterOptions {
  outbox: Outbox;
  deviceId: string;
  /** Sends one report; a failure is forgotten (the next change or heartbeat sends a fresh one). */
  send: (report: DeviceReport) => Promise<DeviceReportAnswer | undefined>;
  /** The server's answer to a report: the day's era, which the phone stamps on what it captures next. */
  onAnswer?: (answer: DeviceReportAnswer) => void | Promise<void>;
  timers?: Timers;
  isOnline?: () => boolean;
  history?: { read(): SendHistory; write(history: SendHistory): void };
  /** After a change, wait this long before reporting (a burst of changes is one report). */
  settleMs?: number;
  /** Report at least this often while the page is open, even if nothing changed: "last seen". */
  heartbeatMs?: number;
  /** The database epoch the phone last checked its items against (decision 135): sent for Campo. */
  epoch?: () => number | null;
}

export const FIELD_REPORT = { settleMs: 3_000, heartbeatMs: 60_000 } as const;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The report of one person's items on this phone, as the field view wants it: each waiting item named
 * by its key, record and slot, so that the server can leave out those that arrive after this report
 * (docs/decisions/060). At most FIELD_REPORT_MAX_ITEMS, the oldest (those that make a validator stuck).
 */
export function buildReport(
  items: readonly OutboxItem[],
  person: string,
  history: SendHistory,
  deviceId: string,
  now: number,
  /** The epoch the phone last checked its items against; undefined: not said (decision 135). */
  epoch?: number | null,
): DeviceReport {
  const mine = items
    .filter((i) => i.owner === person && isWaiting(i))
    .sort((a, b) => a.createdAt - b.createdAt)
    .slice(0, FIELD_REPORT_MAX_ITEMS);
  return {
    deviceId,
    deviceNow: new Date(now).toISOString(),
    lastSuccessAt: iso(history.lastSuccessAt),
    lastError: history.lastError && {
      message: history.lastError.message.slice(0, 500),
      at: new Date(history.lastError.at).toISOString(),
    },
    items: mine.map((i) => ({
      key: i.key,
      slug: i.slug,
      recordId: i.recordId,
      kind: i.kind === 'vote' ? 'vote' : i.photoKind,
      savedAt: new Date(i.createdAt).toISOString(),
      // What was captured under the key (decision 094): after the close, only that is taken as late.
      ...(i.kind === 'vote'
        ? { fingerprint: voteFingerprint(i.candidates) }
        : i.file.sha256
          ? { fingerprint: i.file.sha256 }
          : {}),
      ...(i.era ? { era: i.era } : {}),
    })),
    // After a restore from a copy: what this person's items on the phone went again, and what still waits.
    ...(epoch === undefined
      ? {}
      : {
          recovery: {
            epoch,
            resent: items.filter((i) => i.owner === person && i.resent && i.state === 'sent').length,
            fromBefore: items.filter((i) => i.owner === person && i.resent && isWaiting(i)).length,
          },
        }),
  };
}

/**
 * Tells the server, when it can, what this phone holds (docs/decisions/048): a report shortly after
 * the items or the sends change, and one every minute while the page is open. Only the signed-in
 * person's items, only while online.
 */
export function createFieldReporter(options: FieldReporterOptions) {
  const timers = options.timers ?? realTimers;
  const isOnline = options.isOnline ?? (() => true);
  const settleMs = options.settleMs ?? FIELD_REPORT.settleMs;
  const heartbeatMs = options.heartbeatMs ?? FIELD_REPORT.heartbeatMs;
  const memory: { value: SendHistory } = { value: { lastSuccessAt: null, lastError: null } };
  const history = options.history ?? {
    read: () => memory.value,
    write: (value: SendHistory) => {
      memory.value = value;
    },
  };
  let lastSent = '';
  let settleTimer: unknown;
  let heartbeatTimer: unknown;
  let stopped = false;

  /** What a report would say, without its clock: equal signatures need no new report. */
  const signature = (report: DeviceReport, person: string) =>
    JSON.stringify([person, { ...report, deviceNow: undefined }]);

  async function report(force: boolean): Promise<void> {
    const person = options.outbox.person();
    if (stopped || person === null || !isOnline()) return;
    const body = buildReport(
      options.outbox.getSnapshot().items,
      person,
      history.read(),
      options.deviceId,
      timers.now(),
      options.epoch?.(),
    );
    const sig = signature(body, person);
    if (!force && sig === lastSent) return;
    let answer: DeviceReportAnswer | undefined;
    try {
      answer = await options.send(body);
      lastSent = sig;
    } catch {
      // Not heard this time: the next change or heartbeat tries again.
      return;
    }
    if (answer) await options.onAnswer?.(answer);
  }

  // One report `settleMs` after the first change of a burst: later changes ride along, and a queue that
  // keeps changing (retries) still reports.
  let pending = false;
  function soon() {
    if (pending || stopped) return;
    pending = true;
    settleTimer = timers.setTimeout(() => {
      pending = false;
      void report(false);
    }, settleMs);
  }

  function beat() {
    heartbeatTimer = timers.setTimeout(() => {
      void report(true).finally(() => {
        if (!stopped) beat();
      });
    }, heartbeatMs);
  }

  const unsubscribe = options.outbox.subscribe(soon);
  beat();
  soon();

  return {
    /** The outbox's onAttempt: remembers the last success and the last error, and reports soon. */
    attempted(_item: OutboxItem, outcome: AttemptOutcome) {
      const now = timers.now();
      const previous = history.read();
      history.write(
        outcome.sent
          ? { ...previous, lastSuccessAt: now }
          : { ...previous, lastError: { message: outcome.message, at: now } },
      );
      soon();
    },
    /** Reports now (the browser is back online, a new session). */
    reportNow: () => report(true),
    stop() {
      stopped = true;
      unsubscribe();
      timers.clearTimeout(settleTimer);
      timers.clearTimeout(heartbeatTimer);
    },
  };
}
export type FieldReporter = ReturnType<typeof createFieldReporter>;
