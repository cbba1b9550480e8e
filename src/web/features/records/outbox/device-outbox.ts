import type { DeviceReportAnswer } from '#shared/features/field/field';
import { type Era, eraSchema } from '#shared/platform/era';
import { apiFetch } from '#web/platform/lib/api-client';
import { newUuid } from '#web/platform/lib/new-id';
import { askItems } from '../api/ask-items';
import { discardUpload } from '../api/discard-upload';
import { sendVote } from '../api/vote-record';
import { UNSENT_HINT_KEY } from '../device/device-hints';
import { type DeviceStore, deviceStore, resetDeviceStoreForTests, type SavedCopy } from '../device/device-store';
import { keepDataOnThisPhone, resetDataPersistenceForTests } from '../device/storage-persistence';
import { createFieldReporter, type FieldReporter, type SendHistory } from './field-report';
import { createOutbox, type Outbox, type Transport } from './outbox';
import { isUnsent, type OutboxItem } from './outbox-item';

/**
 * Sends an item with its Idempotency-Key, through the same fetchers as any other request; a photo as a
 * resumable upload that continues where its last try left it (docs/decisions/046).
 */
export const sendOutboxItem: Transport = async (item: OutboxItem, { onProgress, signal, onUploadUrl }) => {
  if (item.kind === 'vote') {
    return sendVote({ ...item, onProgress, signal });
  }
  // tus-js-client (about 11 KB gzip) loads with the first photo sent, not with every signed-in page.
  const { sendResumablePhoto } = await import('../api/send-photo-resumable');
  return sendResumablePhoto({
    slug: item.slug,
    recordId: item.recordId,
    kind: item.photoKind,
    file: new Blob([item.file.data ?? new ArrayBuffer(0)], { type: item.file.type }),
    fileType: item.file.type,
    fileName: item.file.name,
    sha256: item.file.sha256,
    key: item.key,
    era: item.era ?? null,
    uploadUrl: item.uploadUrl ?? null,
    onUploadUrl,
    onProgress,
    signal,
  });
};

/** A DeviceStore whose every call waits for the real one to open. */
function deferred(opening: Promise<DeviceStore>): DeviceStore {
  return {
    items: async () => (await opening).items(),
    async add(item) {
      const saved = await (await opening).add(item);
      // Something now exists only on this phone: ask the browser not to clear it when space runs short.
      void keepDataOnThisPhone();
      return saved;
    },
    put: async (item) => (await opening).put(item),
    remove: async (seq) => (await opening).remove(seq),
    copy: async <T>(id: string) => (await opening).copy<T>(id),
    copiesOf: async <T>(slug: string) => (await opening).copiesOf<T>(slug),
    saveCopy: async (copy: SavedCopy) => (await opening).saveCopy(copy),
    clearCopies: async () => (await opening).clearCopies(),
  };
}

/** One tab sends at a time (where the browser has Web Locks); the others watch the same store. */
const oneTabAtATime = (pass: () => Promise<void>): Promise<void> =>
  typeof navigator !== 'undefined' && navigator.locks
    ? navigator.locks.request('comando-envios', pass).then(() => undefined)
    : pass();

const DEVICE_ID_KEY = 'comando-dispositivo';
const ERA_KEY = 'comando-era';

/** The day's era this phone last heard of (decision 094), kept between pages: stamped on what it captures. */
const knownEra = {
  read(): Era | null {
    try {
      const parsed = eraSchema.safeParse(JSON.parse(localStorage.getItem(ERA_KEY) ?? 'null'));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  },
  write(era: Era | null) {
    try {
      if (era) localStorage.setItem(ERA_KEY, JSON.stringify(era));
      else localStorage.removeItem(ERA_KEY);
    } catch {
      // Storage refused: items are stamped with nothing, as before phones stamped them.
    }
  },
};
const SEND_HISTORY_KEY = 'comando-envios-historial';
const EPOCH_KEY = 'comando-epoca';

/** The server's database epoch this phone last checked its items against (decision 135). */
const knownEpoch = {
  read(): number | null {
    try {
      const value = Number(localStorage.getItem(EPOCH_KEY));
      return Number.isInteger(value) && value > 0 ? value : null;
    } catch {
      return null;
    }
  },
  write(epoch: number) {
    try {
      localStorage.setItem(EPOCH_KEY, String(epoch));
    } catch {
      // Storage refused: the next check asks about every item again, which is harmless.
    }
  },
};

/** This phone's id for the field view: made once, kept in localStorage (a new one where it is refused). */
function deviceId(): string {
  try {
    const known = localStorage.getItem(DEVICE_ID_KEY);
    if (known) return known;
    const made = newUuid();
    localStorage.setItem(DEVICE_ID_KEY, made);
    return made;
  } catch {
    return newUuid();
  }
}

/** The last success and error of this phone's sends, kept between pages. */
const sendHistory = {
  read(): SendHistory {
    try {
      const saved = JSON.parse(localStorage.getItem(SEND_HISTORY_KEY) ?? 'null') as SendHistory | null;
      if (saved) return saved;
    } catch {
      // Nothing kept, or not readable: start again.
    }
    return { lastSuccessAt: null, lastError: null };
  },
  write(history: SendHistory) {
    try {
      localStorage.setItem(SEND_HISTORY_KEY, JSON.stringify(history));
    } catch {
      // Storage refused: the report says it while the page is open only.
    }
  },
};

let instance: { outbox: Outbox; detach: () => void } | undefined;

/** This phone's outbox, started on first use. */
export function deviceOutbox(): Outbox {
  if (instance) return instance.outbox;
  let channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('comando-envios');
  let detached = false;
  let reporter: FieldReporter | undefined;
  const outbox = createOutbox({
    store: deferred(deviceStore()),
    transport: sendOutboxItem,
    isOnline: () => navigator.onLine,
    exclusive: oneTabAtATime,
    // A save still on its way when the outbox is let go (tests) tells nobody.
    broadcast: () => {
      if (!detached) channel?.postMessage('changed');
    },
    onAttempt: (item, outcome) => reporter?.attempted(item, outcome),
    onRemove: (item) => {
      if (item.kind === 'photo' && item.uploadUrl) void discardUpload(item.uploadUrl, item.key);
    },
    era: () => knownEra.read(),
    askItems,
    epochs: knownEpoch,
  });
  // The field view: this phone tells the server, when it can, what it holds (docs/decisions/048).
  reporter = createFieldReporter({
    outbox,
    deviceId: deviceId(),
    isOnline: () => navigator.onLine,
    history: sendHistory,
    epoch: () => knownEpoch.read(),
    send: (report) =>
      apiFetch<DeviceReportAnswer>('/api/field/reports', {
        method: 'POST',
        body: JSON.stringify(report),
        timeoutMs: 15_000,
      }),
    // The day's era: a new one after a drill means the drill's items and lists go (decision 094).
    onAnswer: async (answer) => {
      if (answer.era === undefined) return;
      const previous = knownEra.read();
      knownEra.write(answer.era);
      if (previous?.id !== answer.era?.id) await outbox.eraChanged(answer.era, previous);
    },
  });
  const onMessage = () => void outbox.reload();
  const onOnline = () => {
    void outbox.online();
    void reporter?.reportNow();
  };
  // A phone that slept (or a tab brought back) may have missed a timer or the 'online' event.
  const onVisible = () => {
    if (document.visibilityState === 'visible') void outbox.online();
  };
  channel?.addEventListener('message', onMessage);
  window.addEventListener('online', onOnline);
  document.addEventListener('visibilitychange', onVisible);
  outbox.subscribe(() => {
    try {
      const unsent = outbox.getSnapshot().items.filter(isUnsent).length;
      if (unsent > 0) localStorage.setItem(UNSENT_HINT_KEY, String(unsent));
      else localStorage.removeItem(UNSENT_HINT_KEY);
    } catch {
      // Storage refused (private mode): the layout then only shows the count to signed-in people.
    }
  });
  void outbox.load();
  // The photo sender's code (tus-js-client) is fetched while the page is idle, so that it is not
  // compiled in the middle of preparing the first photo. (Browsers without requestIdleCallback fetch it
  // with the first photo.)
  if (typeof window.requestIdleCallback === 'function') {
    // Offline, it fails quietly: the first photo fetches it again.
    window.requestIdleCallback(() => void import('../api/send-photo-resumable').catch(() => undefined), {
      timeout: 10_000,
    });
  }
  instance = {
    outbox,
    detach() {
      detached = true;
      reporter?.stop();
      outbox.stop();
      channel?.close();
      // Work still finishing after this (a sign-out's last step) tells no one rather than throwing.
      channel = null;
      window.removeEventListener('online', onOnline);
      document.removeEventListener('visibilitychange', onVisible);
    },
  };
  return outbox;
}

/** Tests start each case with a fresh outbox and store. */
export function resetDeviceOutboxForTests(): void {
  instance?.detach();
  instance = undefined;
  resetDeviceStoreForTests();
  resetDataPersistenceForTests();
}
