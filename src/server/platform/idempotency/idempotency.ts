import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { readerOf } from '#server/platform/db/reader';
import type { Database } from '#server/platform/db/schema';
import { UnprocessableEntity } from '#server/platform/http/errors';
import { idempotencyMessages } from '#shared/platform/idempotency';
import { createIdempotencyRepository, type StoredAnswer } from './idempotency.repository';

/** A request that carried an `Idempotency-Key`. */
export interface IdempotentRequest {
  itemKey: string;
  /** Who sent it (e-mail). */
  actor: string;
  /** requestFingerprint() of what it asked. */
  fingerprint: string;
}

/** An answer, first given or given again for a key already used. */
export interface Answer<T> {
  statusCode: number;
  body: T;
  replayed: boolean;
}

/** What a request asked, boiled down: the same parts give the same fingerprint. */
export function requestFingerprint(...parts: (string | number)[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/**
 * Thrown inside a transaction when its key was stored by another request meanwhile: the transaction
 * must roll back, and the caller answers with what that other request stored.
 */
export class IdempotencyKeyTaken extends Error {
  constructor() {
    super('idempotency key stored by another request');
    this.name = 'IdempotencyKeyTaken';
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** The stored answer of a key remembered without its body (no JSON is empty). */
const WITHOUT_BODY = '';
/** Expired keys are deleted at most this often. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

type Db = Kysely<Database>;

/**
 * Remembers the answer to each `Idempotency-Key` for `days` days (see docs/decisions/023): the key is
 * stored with its answer in the transaction of the change, so a change is never without its key nor a
 * key without its change.
 */
export function createIdempotencyKeys(db: Db, options: { days: number; now: () => Date }) {
  const inFlight = new Map<string, Promise<unknown>>();
  let lastPurge = Number.NEGATIVE_INFINITY;

  function requireSameRequest(stored: StoredAnswer, request: IdempotentRequest): void {
    // Someone else's key, or the same key for another vote or photo: never answered from the store.
    if (stored.actor_email !== request.actor || stored.fingerprint !== request.fingerprint) {
      throw UnprocessableEntity(idempotencyMessages.reused);
    }
  }

  function answerFrom<T>(stored: StoredAnswer, request: IdempotentRequest): Answer<T> {
    requireSameRequest(stored, request);
    if (stored.response_body === WITHOUT_BODY) throw new Error('answer remembered without its body: use answered()');
    return { statusCode: stored.status_code, body: JSON.parse(stored.response_body) as T, replayed: true };
  }

  return {
    /** Whether a live entry exists for the key, whatever it holds. */
    async exists(key: string): Promise<boolean> {
      return (await createIdempotencyRepository(readerOf(db)).find(key, options.now())) !== undefined;
    },

    /**
     * The answer already given to this key, or undefined when the key is new. A key used for another
     * request, or by someone else, is refused with 422. Outside a transaction it reads what is committed
     * without waiting for the writer (db/reader.ts): on SQLite a vote's check of its key no longer waits
     * for the flush of the votes before it, and then again for its own.
     */
    async replay<T>(request: IdempotentRequest, trx?: Db): Promise<Answer<T> | undefined> {
      const stored = await createIdempotencyRepository(trx ?? readerOf(db)).find(request.itemKey, options.now());
      return stored ? answerFrom<T>(stored, request) : undefined;
    },

    /**
     * Whether the key was used for this very request: the status it got, or undefined when the key is
     * new (a key used for another request, or by someone else, is refused with 422). For keys remembered
     * without their answer: the caller rebuilds it from what its change stored.
     */
    async answered(request: IdempotentRequest, trx?: Db): Promise<{ statusCode: number } | undefined> {
      const stored = await createIdempotencyRepository(trx ?? readerOf(db)).find(request.itemKey, options.now());
      if (!stored) return undefined;
      requireSameRequest(stored, request);
      return { statusCode: stored.status_code };
    },

    /**
     * Stores the answer inside the caller's transaction; IdempotencyKeyTaken if the key was taken
     * meanwhile. Without `body`, only the key and the status are kept (see answered).
     */
    async remember(trx: Db, request: IdempotentRequest, statusCode: number, body?: unknown): Promise<void> {
      const now = options.now();
      const saved = await createIdempotencyRepository(trx).save({
        item_key: request.itemKey,
        actor_email: request.actor,
        fingerprint: request.fingerprint,
        status_code: statusCode,
        response_body: body === undefined ? WITHOUT_BODY : JSON.stringify(body),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + options.days * DAY_MS).toISOString(),
      });
      if (!saved) throw new IdempotencyKeyTaken();
    },

    /**
     * Runs requests with the same key one after the other in this process, so a burst of retries does
     * the work once and the rest find its answer. (Across instances the database decides, see remember.)
     */
    async serialize<T>(key: string | undefined, work: () => Promise<T>): Promise<T> {
      if (key === undefined) return work();
      const previous = inFlight.get(key) ?? Promise.resolve();
      const run = previous.then(work);
      const settled = run.then(
        () => undefined,
        () => undefined,
      );
      inFlight.set(key, settled);
      try {
        return await run;
      } finally {
        if (inFlight.get(key) === settled) inFlight.delete(key);
      }
    },

    /** Deletes expired keys, at most once an hour; returns how many went. */
    async purgeIfDue(): Promise<number> {
      const now = options.now();
      if (now.getTime() - lastPurge < PURGE_EVERY_MS) return 0;
      lastPurge = now.getTime();
      return createIdempotencyRepository(db).purgeExpired(now);
    },
  };
}
export type IdempotencyKeys = ReturnType<typeof createIdempotencyKeys>;
