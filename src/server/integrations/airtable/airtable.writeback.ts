import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { RecordChangeHooks } from '#server/core/records/records';
import type { Config } from '#server/platform/config/config';
import type { Database } from '#server/platform/db/schema';
import {
  AIRTABLE_MAX_RECORDS_PER_UPDATE,
  AIRTABLE_RATE_LIMIT_WAIT_MS,
  type AirtableClient,
  type AirtableClientOptions,
  AirtableError,
  createAirtableClient,
} from './airtable.client';
import { createAirtableOutboxRepository, type OutboxRow } from './airtable-outbox.repository';

/**
 * Hooks for the vote and photo services: each new vote and photo of a record that came from Airtable
 * is queued in the outbox inside the change's own transaction, so the change and its trip to Airtable
 * are committed together or not at all. `photoUrl` gives the link written into Airtable's photo field;
 * `onQueued` hears of each queued change (to nudge the worker).
 */
export function airtableWritebackHooks(options: {
  photoUrl: (photoId: number) => string;
  onQueued?: () => void;
}): RecordChangeHooks {
  return {
    async afterVote(trx, vote) {
      const queued = await createAirtableOutboxRepository(trx).queue({
        recordId: vote.recordId,
        field: 'voto',
        value: vote.codes.join(','),
        // The first vote keeps the key it always had; each later write of the vote is a change of its own.
        changeKey: vote.revision <= 1 ? `vote:${vote.recordId}` : `vote:${vote.recordId}:${vote.revision}`,
        at: vote.at,
      });
      if (queued) options.onQueued?.();
    },
    async afterPhoto(trx, photo) {
      // A drill photo is erased with the drill: Airtable never hears of it.
      if (photo.drill) return;
      const queued = await createAirtableOutboxRepository(trx).queue({
        recordId: photo.recordId,
        field: photo.kind,
        value: options.photoUrl(photo.photoId),
        changeKey: `photo:${photo.photoId}`,
        at: photo.at,
      });
      if (queued) options.onQueued?.();
    },
  };
}

export interface WritebackLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface WritebackWorkerOptions {
  db: Kysely<Database>;
  /** A client that does not retry on its own (attempts 1, no 429 waits): the outbox retries. */
  client: AirtableClient;
  table: string;
  now?: () => Date;
  /** How often the outbox is looked at when nobody nudged the worker. */
  pollMs?: number;
  /** Waits between attempts of a change: base, doubled each time, up to max (with ±20 % jitter). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How long a taken change stays reserved for this worker (then another one may take it). */
  leaseMs?: number;
  /** Changes taken per round. */
  batchRows?: number;
  log?: WritebackLog;
  random?: () => number;
}

export interface DrainResult {
  /** Changes Airtable acknowledged. */
  sent: number;
  /** PATCH requests made. */
  requests: number;
  /** Changes that failed this time and wait for their next attempt. */
  retrying: number;
  /** Changes Airtable refused for good. */
  failed: number;
}

const silentLog: WritebackLog = { info() {}, warn() {}, error() {} };

/**
 * Sends the outbox to Airtable: the changes of up to 10 records per PATCH (several changes of one
 * record go as one), each change marked sent once Airtable acknowledged it. A failure leaves the change
 * in the outbox with its next attempt after a growing wait (30 s after a 429); rows stay until
 * acknowledged, so a restart resumes where the last run stopped. A change Airtable refuses for good
 * (ROW_DOES_NOT_EXIST, a field that cannot take the value) is tried alone, then marked failed so it
 * does not hold back the others. Exactly once: a change is sent again only if its acknowledgement was
 * lost, and a PATCH that sets the same value twice changes nothing.
 */
export function createWritebackWorker(options: WritebackWorkerOptions) {
  const repo = createAirtableOutboxRepository(options.db);
  const now = options.now ?? (() => new Date());
  const pollMs = options.pollMs ?? 5_000;
  const backoffBaseMs = options.backoffBaseMs ?? 5_000;
  const backoffMaxMs = options.backoffMaxMs ?? 15 * 60_000;
  const leaseMs = options.leaseMs ?? 2 * 60_000;
  const batchRows = options.batchRows ?? 100;
  const log = options.log ?? silentLog;
  const random = options.random ?? Math.random;
  const owner = `${process.pid}-${randomUUID().slice(0, 8)}`;

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let started = false;
  let stopping = false;

  const backoff = (attempts: number) => {
    const base = Math.min(backoffMaxMs, backoffBaseMs * 2 ** Math.max(0, attempts - 1));
    return Math.round(base * (0.8 + 0.4 * random()));
  };

  /** One PATCH for up to 10 records; each record's changes merged, the newest value of a field winning. */
  async function send(groups: OutboxRow[][]): Promise<void> {
    const records = groups.map((rows) => ({
      id: (rows[0] as OutboxRow).airtable_id,
      fields: Object.fromEntries(rows.map((r) => [r.field, r.value])),
    }));
    await options.client.update(options.table, records);
  }

  /** Airtable down, busy, garbled, or refusing the token (which an operator may fix): try later. */
  const transient = (error: AirtableError) => error.retryable || error.kind === 'auth';

  /** Sends and marks sent; the error when Airtable did not acknowledge. */
  async function trySend(groups: OutboxRow[][], result: DrainResult): Promise<AirtableError | undefined> {
    result.requests++;
    try {
      await send(groups);
    } catch (error) {
      if (error instanceof AirtableError) return error;
      throw error;
    }
    const rows = groups.flat();
    await repo.markSent(
      rows.map((r) => r.id),
      owner,
      now().toISOString(),
    );
    result.sent += rows.length;
    return undefined;
  }

  async function reschedule(rows: OutboxRow[], error: AirtableError): Promise<void> {
    const at = now().getTime();
    for (const row of rows) {
      const attempts = row.attempts + 1;
      const wait = error.kind === 'rate_limited' ? AIRTABLE_RATE_LIMIT_WAIT_MS : backoff(attempts);
      await repo.reschedule(row.id, owner, attempts, new Date(at + wait).toISOString(), error.message);
    }
  }

  async function drain(drainOptions: { ignoreBackoff?: boolean } = {}): Promise<DrainResult> {
    const result: DrainResult = { sent: 0, requests: 0, retrying: 0, failed: 0 };
    while (!stopping) {
      const at = now();
      const rows = await repo.claim({
        owner,
        now: at.toISOString(),
        leaseUntil: new Date(at.getTime() + leaseMs).toISOString(),
        limit: batchRows,
        ignoreBackoff: drainOptions.ignoreBackoff,
      });
      if (rows.length === 0) break;
      const byRecord = new Map<string, OutboxRow[]>();
      for (const row of rows) byRecord.set(row.airtable_id, [...(byRecord.get(row.airtable_id) ?? []), row]);
      const groups = [...byRecord.values()];

      let unreachable: AirtableError | undefined;
      for (let i = 0; i < groups.length; i += AIRTABLE_MAX_RECORDS_PER_UPDATE) {
        const chunk = groups.slice(i, i + AIRTABLE_MAX_RECORDS_PER_UPDATE);
        const chunkRows = chunk.flat();
        if (unreachable || stopping) {
          // Airtable just failed (or we are stopping): do not knock again in this round.
          if (unreachable) {
            await reschedule(chunkRows, unreachable);
            result.retrying += chunkRows.length;
          } else
            await repo.release(
              chunkRows.map((r) => r.id),
              owner,
            );
          continue;
        }
        const problem = await trySend(chunk, result);
        if (!problem) continue;
        if (transient(problem)) {
          log.warn({ err: problem, changes: chunkRows.length }, 'Airtable write-back failed; will retry');
          unreachable = problem;
          await reschedule(chunkRows, problem);
          result.retrying += chunkRows.length;
          continue;
        }
        // Refused for good: send each record alone to find which one, so the others still go.
        for (const group of chunk) {
          const alone = chunk.length === 1 ? problem : await trySend([group], result);
          if (!alone) continue;
          if (transient(alone)) {
            await reschedule(group, alone);
            result.retrying += group.length;
            continue;
          }
          log.error({ err: alone, airtableId: group[0]?.airtable_id }, 'Airtable refused a write-back change');
          await repo.markFailed(
            group.map((r) => r.id),
            owner,
            alone.message,
          );
          result.failed += group.length;
        }
      }
      if (unreachable) break;
    }
    if (result.sent > 0 || result.failed > 0) log.info({ ...result }, 'Airtable write-back round');
    return result;
  }

  function schedule(delayMs: number): void {
    if (!started || stopping) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      running = drain()
        .catch((error: unknown) => log.error({ err: error }, 'Airtable write-back round failed'))
        .finally(() => {
          running = undefined;
          schedule(pollMs);
        });
    }, delayMs);
    timer.unref?.();
  }

  return {
    /** Sends what is due now, until nothing is (or Airtable fails); the CLI's `airtable:push`. */
    drain,
    /** Starts looking at the outbox every `pollMs`, beginning now. */
    start(): void {
      if (started) return;
      started = true;
      schedule(0);
    },
    /** A change was just queued: look soon rather than at the next poll. */
    nudge(): void {
      if (started && !stopping && !running) schedule(50);
    },
    /** Stops polling and waits for the round in progress; what it had not sent stays in the outbox. */
    async stop(): Promise<void> {
      stopping = true;
      clearTimeout(timer);
      await running;
    },
  };
}
export type WritebackWorker = ReturnType<typeof createWritebackWorker>;

/** Worker timings and client settings a test may change (never the token, base or table). */
export type AirtableWritebackOverrides = Partial<Omit<WritebackWorkerOptions, 'db' | 'client' | 'table'>> & {
  client?: Partial<Omit<AirtableClientOptions, 'token' | 'baseId' | 'apiUrl'>>;
};

/**
 * The write-back of a running server (AIRTABLE_WRITEBACK=1): the hooks that queue each vote and photo,
 * and the worker that sends them, nudged by each queued change. Undefined when write-back is off.
 */
export function createAirtableWriteback(
  config: Config,
  db: Kysely<Database>,
  log: WritebackLog,
  overrides: AirtableWritebackOverrides = {},
): { hooks: RecordChangeHooks; worker: WritebackWorker } | undefined {
  const { writeback, token, baseId, apiUrl, recordsTable } = config.airtable;
  if (!writeback || !token || !baseId) return undefined;
  const { client: clientOverrides, ...workerOverrides } = overrides;
  const worker = createWritebackWorker({
    db,
    // One try per request and no 30-second waits inside: the outbox retries, with its own backoff. A
    // request in flight ends within the server's 10-second shutdown grace.
    client: createAirtableClient({
      token,
      baseId,
      apiUrl,
      attempts: 1,
      maxRateLimitWaits: 0,
      timeoutMs: 8_000,
      ...clientOverrides,
    }),
    table: recordsTable,
    now: config.now,
    log,
    ...workerOverrides,
  });
  const origin = config.publicOrigin ?? '';
  const hooks = airtableWritebackHooks({
    photoUrl: (photoId) => `${origin}/api/photos/${photoId}`,
    onQueued: () => worker.nudge(),
  });
  return { hooks, worker };
}
