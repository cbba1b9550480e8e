import { ITEMS_ASKED_MAX, type ItemsHeld } from '#shared/features/election/election';
import { arrivedDamaged } from '#shared/features/photos/photos';
import type { Era } from '#shared/platform/era';
import { newItemKey } from '#web/platform/lib/new-id';
import { realTimers, type Timers } from '#web/platform/lib/timers';
import type { DeviceStore } from '../device/device-store';
import {
  isSecured,
  isUnsent,
  isWaiting,
  mayRetryRefusal,
  type NewPhoto,
  type NewVote,
  type OutboxItem,
  type UnsavedItem,
} from './outbox-item';

/** Any HTTP answer to a try; a try without an answer rejects instead (network, timeout). */
export interface SendAnswer {
  status: number;
  body: unknown;
}

/** Sends one item; rejects when no answer came (ApiError with status 0). */
export type Transport = (
  item: OutboxItem,
  options: {
    onProgress: (percent: number) => void;
    signal: AbortSignal;
    /** A photo's upload got an address on the server (or lost it): kept with the item, on the phone. */
    onUploadUrl: (url: string | null) => Promise<void>;
  },
) => Promise<SendAnswer>;

/** What the app does when an item changes for good. */
export interface OutboxEvents {
  onSent?(item: OutboxItem, body: unknown): void;
  onRejected?(item: OutboxItem): void;
  /** The server said the item belongs to a drill already erased: it left the phone (decision 079). */
  onDropped?(item: OutboxItem, message: string): void;
  /** The drill has ended: its items left the phone, and whatever else the phone kept of it must go (094). */
  onDrillEnded?(): void;
  /** The session ended: the item waits, and sending stops until a session is connected again. */
  onUnauthorized?(): void;
  /**
   * A sent photo's bytes had to go before the off-machine copy had it (the phone's bound on photo bytes):
   * the server has it, but this phone could not keep it as a second copy (decision 135).
   */
  onNotKept?(item: OutboxItem): void;
  /** The server was restored from a copy that lacked these items: they are being sent again. */
  onResending?(items: OutboxItem[]): void;
}

export interface OutboxSnapshot {
  /** Every item on the phone, in order of arrival. */
  items: readonly OutboxItem[];
  /** Upload progress (0-100) of the item on its way, by seq. */
  progress: ReadonlyMap<number, number>;
  /** False until the phone's copy was read. */
  loaded: boolean;
}

export interface OutboxOptions {
  store: DeviceStore;
  transport: Transport;
  timers?: Timers;
  random?: () => number;
  /** navigator.onLine: false means surely offline (no try is made until the browser says online). */
  isOnline?: () => boolean;
  /** Runs one sending pass so that a single tab sends at a time (Web Locks); default: as is. */
  exclusive?: (pass: () => Promise<void>) => Promise<void>;
  /** Tells other tabs something changed; they reload() from the phone's copy. */
  broadcast?: () => void;
  /** An item was removed ('Quitar'): whatever the server holds of it may go too. */
  onRemove?: (item: OutboxItem) => void;
  /** How each try ended (the field report keeps the last success and the last error). */
  onAttempt?: (item: OutboxItem, outcome: AttemptOutcome) => void;
  /** The day's era the phone last heard of, stamped on each new item (decision 094). */
  era?: () => Era | null;
  /**
   * Asks the server about the connected person's items by item key (POST /api/election/items, decision
   * 135): which it holds, which its off-machine copy holds, and its database's epoch. Without it, sent
   * items are never 'Asegurado'.
   */
  askItems?: (keys: string[]) => Promise<ItemsHeld>;
  /** The database epoch the phone last checked its items against, kept between pages. */
  epochs?: { read(): number | null; write(epoch: number): void };
  /** At most this many bytes of photos kept on the phone (default PHOTO_BYTES_KEPT). */
  maxPhotoBytes?: number;
}

/** A try: the server took the item, refused it, or gave no usable answer (tried again later). */
export type AttemptOutcome = { sent: true } | { sent: false; message: string; rejected: boolean };

/** Waits between tries without an answer: 2 s, 4 s, 8 s … up to a minute, each 50-100 % of that. */
export const BACKOFF = { firstMs: 2_000, maxMs: 60_000 } as const;

export function backoffDelay(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Answers worth trying again later: no answer (thrown), timeouts, throttling and server trouble. */
const isTransient = (status: number) => status === 408 || status === 425 || status === 429 || status >= 500;

/** Items 'Asegurado' are shown for this long after the copy had them, then forgotten (decision 135). */
export const KEEP_SENT_MS = 24 * 60 * 60 * 1000;

/** How often the phone asks whether its sent items are 'Asegurado' (and the server's epoch). */
export const SECURED_CHECK_MS = 15_000;

/**
 * The bound on the photo bytes a phone keeps (decision 135): past it, the bytes of photos 'Asegurado' go
 * first, oldest first, then those only 'Enviado' (the person is told). Photos still to be sent are never
 * dropped. 200 MiB: a day of 150 records with three right-sized photos (about 0.66 MB each) is about
 * 300 MB, more than a low-end phone should give one site; 200 MiB keeps the last two thirds of it.
 */
export const PHOTO_BYTES_KEPT = 200 * 1024 * 1024;

/** An item 'Asegurado' longer than KEEP_SENT_MS ago: forgotten. */
const expired = (item: OutboxItem, now: number) => isSecured(item) && now - (item.securedAt ?? now) > KEEP_SENT_MS;

const photoBytes = (item: OutboxItem) => (item.kind === 'photo' ? (item.file.data?.byteLength ?? 0) : 0);

const refusal = (body: unknown, fallback: string) => {
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && message ? message : fallback;
};

/**
 * The phone's outbox (docs/decisions/024): votes and photos are saved here first, then sent in the
 * background, one at a time and in order, each with its Idempotency-Key; tries without an answer are
 * repeated with growing waits. An item leaves only when the server accepted it or someone removes it.
 */
export function createOutbox(options: OutboxOptions) {
  const { store, transport } = options;
  const timers = options.timers ?? realTimers;
  const random = options.random ?? Math.random;
  const isOnline = options.isOnline ?? (() => true);
  const exclusive = options.exclusive ?? ((pass) => pass());

  let items: OutboxItem[] = [];
  const progress = new Map<number, number>();
  let snapshot: OutboxSnapshot = { items, progress: new Map(), loaded: false };
  const listeners = new Set<() => void>();
  let owner: string | null = null;
  let events: OutboxEvents = {};
  let pausedForSession = false;
  let passing = false;
  let passAgain = false;
  let wakeTimer: unknown;
  let inFlight: { seq: number; controller: AbortController } | null = null;
  let loading: Promise<void> | null = null;
  let nextCheckAt = 0;
  let checkTimer: unknown;
  const maxPhotoBytes = options.maxPhotoBytes ?? PHOTO_BYTES_KEPT;

  function publish(loaded = snapshot.loaded) {
    snapshot = { items, progress: new Map(progress), loaded };
    for (const listener of listeners) listener();
  }

  async function reload(): Promise<void> {
    const stored = (await store.items()).sort((a, b) => a.seq - b.seq);
    // The item on its way here stays 'sending' (the copy on disk says 'saved').
    items = stored.map((item) =>
      inFlight?.seq === item.seq && item.state === 'saved' ? { ...item, state: 'sending' } : item,
    );
    publish(true);
  }

  function replace(item: OutboxItem) {
    items = items.map((i) => (i.seq === item.seq ? item : i));
  }

  /** Writes the item to the phone first, then shows it. */
  async function save(item: OutboxItem): Promise<void> {
    // What is on disk is never 'sending': a tab closed mid-try leaves the item waiting for the next one.
    await store.put(item.state === 'sending' ? { ...item, state: 'saved' } : item);
    replace(item);
    publish();
    options.broadcast?.();
  }

  function schedule(at: number) {
    timers.clearTimeout(wakeTimer);
    wakeTimer = timers.setTimeout(kick, Math.max(0, at - timers.now()));
  }

  /** The first waiting item of the connected person, if its time has come; otherwise when it will. */
  function next(): { item?: OutboxItem; wakeAt?: number } {
    const first = items.find((i) => i.owner === owner && (i.state === 'saved' || i.state === 'sending'));
    if (!first) return {};
    return first.nextAttemptAt <= timers.now() ? { item: first } : { wakeAt: first.nextAttemptAt };
  }

  async function sendOne(first: OutboxItem): Promise<'next' | 'stop'> {
    // The item as it now stands: a photo's upload address may be added while it travels.
    let item = first;
    // A photo whose upload moved forward during this try is on a link that works, if badly: it is
    // tried again soon, not after a wait that grows with every cut (a resumable upload keeps its bytes).
    let startPercent: number | undefined;
    let moved = false;
    const controller = new AbortController();
    inFlight = { seq: item.seq, controller };
    replace({ ...item, state: 'sending' });
    progress.set(item.seq, 0);
    publish();
    try {
      const answer = await transport(item, {
        signal: controller.signal,
        onProgress: (percent) => {
          startPercent ??= percent;
          if (percent > startPercent) moved = true;
          progress.set(item.seq, percent);
          publish();
        },
        onUploadUrl: async (url) => {
          if (controller.signal.aborted || item.kind !== 'photo' || item.uploadUrl === url) return;
          item = { ...item, uploadUrl: url };
          await save({ ...item, state: 'sending' });
        },
      });
      if (answer.status >= 200 && answer.status < 300) {
        const sent: OutboxItem =
          item.kind === 'photo'
            ? {
                ...item,
                state: 'sent',
                sentAt: timers.now(),
                securedAt: null,
                lastError: null,
                warning: ((answer.body as { warning?: string | null } | undefined)?.warning ?? null) || null,
              }
            : { ...item, state: 'sent', sentAt: timers.now(), securedAt: null, lastError: null };
        await save(sent);
        if (nextCheckAt <= timers.now()) scheduleCheck();
        options.onAttempt?.(sent, { sent: true });
        events.onSent?.(sent, answer.body);
        return 'next';
      }
      if (answer.status === 401) {
        await save({ ...item, state: 'saved' });
        pausedForSession = true;
        events.onUnauthorized?.();
        return 'stop';
      }
      if (answer.status === 410) {
        // An item of a drill already erased never counts: it leaves the phone without asking anyone.
        await store.remove(item.seq);
        items = items.filter((i) => i.seq !== item.seq);
        publish();
        options.broadcast?.();
        options.onRemove?.(item);
        events.onDropped?.(item, refusal(answer.body, 'Era del simulacro'));
        return 'next';
      }
      if (item.kind === 'photo' && arrivedDamaged(answer.body)) {
        // The server discarded what arrived (not the bytes the phone hashed): a fresh upload of the
        // phone's own copy, after the usual wait, without asking the person (docs/decisions/082).
        await retryLater({ ...item, uploadUrl: null }, refusal(answer.body, `Error ${answer.status}`));
        return 'next';
      }
      if (isTransient(answer.status)) {
        await retryLater(item, refusal(answer.body, `Error ${answer.status} del servidor`));
        return 'next';
      }
      const rejected: OutboxItem = {
        ...item,
        state: 'rejected',
        lastError: null,
        rejection: { status: answer.status, message: refusal(answer.body, `Error ${answer.status}`) },
      };
      await save(rejected);
      options.onAttempt?.(rejected, { sent: false, rejected: true, message: rejected.rejection?.message ?? '' });
      events.onRejected?.(rejected);
      return 'next';
    } catch (error) {
      if (controller.signal.aborted) {
        // Stopped on purpose (sign-out, removal): back to waiting, no try counted.
        replace({ ...item, state: 'saved' });
        publish();
        return 'stop';
      }
      await retryLater(item, error instanceof Error ? error.message : String(error), item.kind === 'photo' && moved);
      return 'next';
    } finally {
      inFlight = null;
      progress.delete(item.seq);
    }
  }

  async function retryLater(item: OutboxItem, reason: string, moved = false) {
    options.onAttempt?.(item, { sent: false, rejected: false, message: reason });
    const attempts = moved ? 1 : item.attempts + 1;
    await save({
      ...item,
      state: 'saved',
      attempts,
      nextAttemptAt: timers.now() + backoffDelay(attempts, random),
      lastError: reason,
    });
  }

  async function drain(): Promise<void> {
    while (owner !== null && !pausedForSession && isOnline()) {
      const { item, wakeAt } = next();
      if (!item) {
        if (wakeAt !== undefined) schedule(wakeAt);
        return;
      }
      if ((await sendOne(item)) === 'stop') return;
    }
  }

  async function pass(): Promise<void> {
    if (passing) {
      passAgain = true;
      return;
    }
    passing = true;
    try {
      do {
        passAgain = false;
        await ensureLoaded();
        await exclusive(async () => {
          // Another tab may have sent or changed items while this one waited for its turn.
          await reload();
          await drain();
          if (timers.now() >= nextCheckAt) await checkKept();
        });
      } while (passAgain);
    } finally {
      passing = false;
    }
  }

  function kick() {
    void pass().catch((error: unknown) => console.error('outbox', error));
  }

  function ensureLoaded(): Promise<void> {
    loading ??= (async () => {
      const now = timers.now();
      for (const item of await store.items()) {
        if (expired(item, now)) await store.remove(item.seq);
      }
      await reload();
    })();
    return loading;
  }

  function base(owner: string) {
    const now = timers.now();
    const era = options.era?.() ?? null;
    return {
      era: era?.id ?? null,
      eraDrill: era?.drill ?? false,
      key: newItemKey(),
      owner,
      state: 'saved' as const,
      attempts: 0,
      nextAttemptAt: now,
      lastError: null,
      rejection: null,
      createdAt: now,
      sentAt: null,
    };
  }

  async function add(item: UnsavedItem): Promise<OutboxItem> {
    await ensureLoaded();
    const saved = await store.add(item);
    items = [...items, saved];
    publish();
    options.broadcast?.();
    if (saved.kind === 'photo') await keepWithinBound();
    kick();
    return saved;
  }

  /**
   * Photo bytes past the bound go (decision 135): those of items 'Asegurado' first, oldest first, then
   * those only 'Enviado' (the server has them; the person is told this phone could not keep them). Bytes
   * still to be sent are never dropped.
   */
  async function keepWithinBound(): Promise<void> {
    let total = items.reduce((sum, item) => sum + photoBytes(item), 0);
    if (total <= maxPhotoBytes) return;
    const bySent = (a: OutboxItem, b: OutboxItem) => (a.sentAt ?? 0) - (b.sentAt ?? 0);
    const droppable = [
      ...items.filter((i) => isSecured(i) && photoBytes(i) > 0).sort(bySent),
      ...items.filter((i) => i.state === 'sent' && !isSecured(i) && photoBytes(i) > 0).sort(bySent),
    ];
    for (const item of droppable) {
      if (total <= maxPhotoBytes || item.kind !== 'photo') break;
      total -= photoBytes(item);
      await save({ ...item, file: { ...item.file, data: null } });
      if (!isSecured(item)) events.onNotKept?.(item);
    }
  }

  function scheduleCheck() {
    timers.clearTimeout(checkTimer);
    nextCheckAt = timers.now() + SECURED_CHECK_MS;
    checkTimer = timers.setTimeout(kick, SECURED_CHECK_MS);
  }

  /** The connected person's sent items the phone still keeps, asked about in batches the server takes. */
  async function askAbout(keys: string[]): Promise<ItemsHeld | undefined> {
    const ask = options.askItems;
    if (!ask) return undefined;
    let answer: ItemsHeld | undefined;
    for (let i = 0; i === 0 || i < keys.length; i += ITEMS_ASKED_MAX) {
      const part = await ask(keys.slice(i, i + ITEMS_ASKED_MAX));
      answer = answer
        ? { ...part, held: [...answer.held, ...part.held], secured: [...answer.secured, ...part.secured] }
        : part;
    }
    return answer;
  }

  /**
   * Which of the person's sent items the server's copy holds now ('Asegurado'), and whether the server is
   * in a new epoch (restored from a copy): then every item kept is asked about in one batch question,
   * and those it lacks are sent again (decision 135). Their item keys make a repeat harmless.
   */
  async function checkKept(): Promise<void> {
    const person = owner;
    const mine = items.filter((i) => i.owner === person && i.state === 'sent');
    if (!options.askItems || person === null || !isOnline() || mine.length === 0) return;
    scheduleCheck();
    const unsecured = mine.filter((i) => !isSecured(i));
    let answer: ItemsHeld | undefined;
    try {
      answer = await askAbout(unsecured.map((i) => i.key));
      const epoch = answer?.epoch?.number ?? null;
      const known = options.epochs?.read() ?? null;
      // A new epoch, or none known yet (the phone may have sent to a server lost before its first check).
      if (answer && epoch !== null && epoch !== known) {
        answer = await askAbout(mine.map((i) => i.key));
        if (!answer) return;
        const held = new Set(answer.held);
        const secured = new Set(answer.secured);
        const now = timers.now();
        const again: OutboxItem[] = [];
        for (const item of mine) {
          if (held.has(item.key)) {
            await save({ ...item, securedAt: secured.has(item.key) ? (item.securedAt ?? now) : null });
          } else if (item.kind === 'vote' || item.file.data) {
            const resend: OutboxItem = {
              ...item,
              state: 'saved',
              resent: true,
              sentAt: null,
              securedAt: null,
              attempts: 0,
              nextAttemptAt: now,
              lastError: null,
              ...(item.kind === 'photo' ? { uploadUrl: null } : {}),
            };
            await save(resend);
            again.push(resend);
          }
        }
        options.epochs?.write(epoch);
        if (again.length > 0) {
          events.onResending?.(again);
          passAgain = true;
        }
        return;
      }
    } catch {
      // Not answered: asked again at the next check.
      return;
    }
    const secured = new Set(answer?.secured ?? []);
    const now = timers.now();
    for (const item of unsecured) {
      if (secured.has(item.key)) await save({ ...item, securedAt: now });
    }
    const gone = items.filter((i) => expired(i, now));
    for (const item of gone) await store.remove(item.seq);
    if (gone.length > 0) {
      items = items.filter((i) => !gone.includes(i));
      publish();
      options.broadcast?.();
    }
    await keepWithinBound();
  }

  return {
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: (): OutboxSnapshot => snapshot,
    /** Who is connected (null: nobody): whose items are sent, and reported. */
    person: (): string | null => owner,
    /** Reads the phone's copy (once), dropping sent items older than a day. */
    load: ensureLoaded,
    /** Another tab changed the phone's copy. */
    reload,

    /**
     * Who is signed in (null: nobody, or not known offline). Only their items are sent, and only while
     * connected; a new session resumes what an ended one left waiting.
     */
    connect(person: string | null, handlers: OutboxEvents = {}) {
      if (person !== owner || person === null) pausedForSession = false;
      owner = person;
      events = handlers;
      kick();
    },

    /** The browser is back online: every waiting item is due now, whatever its backoff said. */
    async online(): Promise<void> {
      await ensureLoaded();
      const now = timers.now();
      for (const item of items) {
        if (item.state === 'saved' && item.nextAttemptAt > now) await save({ ...item, nextAttemptAt: now });
      }
      kick();
    },

    /** Saves a vote on the phone (resolves once it is on disk) and sends it in the background. */
    async addVote(vote: NewVote): Promise<OutboxItem> {
      await ensureLoaded();
      // One vote per record and person: a second tap, or a second dialog, adds nothing. (Another person's
      // vote for it, waiting on a shared phone, is theirs: this one is kept and the server decides.)
      const existing = items.find(
        (i) =>
          i.kind === 'vote' &&
          i.owner === vote.owner &&
          i.slug === vote.slug &&
          i.recordId === vote.recordId &&
          i.state !== 'rejected',
      );
      if (existing) return existing;
      return add({ ...base(vote.owner), ...vote, kind: 'vote' });
    },

    /** Saves a photo on the phone (resolves once it is on disk) and sends it in the background. */
    async addPhoto(photo: NewPhoto): Promise<OutboxItem> {
      return add({ ...base(photo.owner), ...photo, kind: 'photo', warning: null });
    },

    /** 'Reintentar': a refusal that may now succeed goes back in line; a waiting item is tried now. */
    async retry(seq: number): Promise<void> {
      const item = items.find((i) => i.seq === seq);
      if (!item || item.state === 'sent' || item.state === 'sending') return;
      if (item.state === 'rejected' && !mayRetryRefusal(item)) return;
      await save({ ...item, state: 'saved', rejection: null, nextAttemptAt: timers.now() });
      kick();
    },

    /** 'Quitar': forgets an item that is not on its way. */
    async remove(seq: number): Promise<void> {
      const item = items.find((i) => i.seq === seq);
      if (!item || item.state === 'sending') return;
      await store.remove(seq);
      items = items.filter((i) => i.seq !== seq);
      publish();
      options.broadcast?.();
      options.onRemove?.(item);
    },

    /** Items not yet accepted by the server (waiting or refused), of one person or of anybody. */
    unsent(person?: string): OutboxItem[] {
      return items.filter((i) => isUnsent(i) && (person === undefined || i.owner === person));
    },

    /** Items of one person still to be sent: what a sign-out would leave on the phone, or delete. */
    waiting(person: string): OutboxItem[] {
      return items.filter((i) => isWaiting(i) && i.owner === person);
    },

    /**
     * Sign-out, or a session that ended: stops sending and forgets what the server already has (it names
     * people). Waiting items stay unless `dropWaitingOf` names whose to drop: the person was asked twice.
     */
    async signOut(dropWaitingOf?: string): Promise<void> {
      await ensureLoaded();
      owner = null;
      inFlight?.controller.abort();
      timers.clearTimeout(wakeTimer);
      timers.clearTimeout(checkTimer);
      // The item on its way was stopped: it is waiting again, and as such may be dropped.
      await reload();
      for (const item of items) {
        // A sent item stays until the off-machine copy has it (decision 135); the next person never sees it.
        if (isSecured(item) || (dropWaitingOf !== undefined && item.owner === dropWaitingOf && isWaiting(item))) {
          await store.remove(item.seq);
        }
      }
      await reload();
      options.broadcast?.();
    },

    /**
     * The server's era is now `current` (decision 094): if the phone was in a drill's, or holds items of
     * one, the drill has ended: those items leave the phone whatever their state (waiting, sent, refused),
     * without asking, and the app is told (it forgets the lists kept of the drill and says so).
     */
    async eraChanged(current: Era | null, previous: Era | null): Promise<void> {
      await ensureLoaded();
      const ended = (item: OutboxItem) => item.eraDrill === true && !!item.era && item.era !== current?.id;
      const dropped = items.filter(ended);
      if (inFlight && dropped.some((i) => i.seq === inFlight?.seq)) inFlight.controller.abort();
      for (const item of dropped) {
        await store.remove(item.seq);
        options.onRemove?.(item);
      }
      if (dropped.length > 0) {
        items = items.filter((i) => !ended(i));
        publish();
        options.broadcast?.();
      }
      const leftDrill = previous?.drill === true && previous.id !== current?.id;
      if (leftDrill || dropped.length > 0) events.onDrillEnded?.();
    },

    /** Stops timers and the request on its way (tests, and the page going away). */
    stop() {
      owner = null;
      inFlight?.controller.abort();
      timers.clearTimeout(wakeTimer);
      timers.clearTimeout(checkTimer);
    },

    /** Asks now which sent items are 'Asegurado' and whether the server was restored (tests, reconnection). */
    checkNow(): Promise<void> {
      nextCheckAt = 0;
      return pass();
    },
  };
}
export type Outbox = ReturnType<typeof createOutbox>;
