import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { OutboxItem, UnsavedItem } from '../outbox/outbox-item';

/** A copy of something the server answered, kept on the phone for when there is no connection. */
export interface SavedCopy<T = unknown> {
  /** `page|<slug>|<validated>|<after>`, `summary|<slug>` or `candidates`. */
  id: string;
  slug: string | null;
  savedAt: number;
  data: T;
}

interface DeviceSchema extends DBSchema {
  outbox: { key: number; value: OutboxItem; indexes: { key: string } };
  copies: { key: string; value: SavedCopy; indexes: { slug: string } };
}

type NewItem = UnsavedItem;

/** What the phone keeps: the outbox (votes and photos not yet sent) and the last lists seen. */
export interface DeviceStore {
  items(): Promise<OutboxItem[]>;
  /** Saves a new item; resolves once it is on disk, with its place in the queue. */
  add(item: NewItem): Promise<OutboxItem>;
  put(item: OutboxItem): Promise<void>;
  remove(seq: number): Promise<void>;
  copy<T>(id: string): Promise<SavedCopy<T> | undefined>;
  copiesOf<T>(slug: string): Promise<SavedCopy<T>[]>;
  saveCopy(copy: SavedCopy): Promise<void>;
  /** Forgets every saved list (names and phones); the outbox stays. */
  clearCopies(): Promise<void>;
}

export const DEVICE_DB_NAME = 'comando-validacion';

/** IndexedDB through idb: one database, two stores. Items are written before anyone is told "saved". */
export async function openDeviceStore(name: string = DEVICE_DB_NAME): Promise<DeviceStore> {
  const db: IDBPDatabase<DeviceSchema> = await openDB<DeviceSchema>(name, 1, {
    upgrade(database) {
      const outbox = database.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
      outbox.createIndex('key', 'key', { unique: true });
      const copies = database.createObjectStore('copies', { keyPath: 'id' });
      copies.createIndex('slug', 'slug');
    },
  });
  return {
    items: () => db.getAll('outbox'),
    async add(item) {
      // `seq` is given by the store (autoIncrement): omitted on purpose.
      const seq = await db.add('outbox', item as OutboxItem);
      return { ...item, seq } as OutboxItem;
    },
    async put(item) {
      await db.put('outbox', item);
    },
    async remove(seq) {
      await db.delete('outbox', seq);
    },
    copy: async <T>(id: string) => (await db.get('copies', id)) as SavedCopy<T> | undefined,
    copiesOf: async <T>(slug: string) => (await db.getAllFromIndex('copies', 'slug', slug)) as SavedCopy<T>[],
    async saveCopy(copy) {
      await db.put('copies', copy);
    },
    async clearCopies() {
      await db.clear('copies');
    },
  };
}

/** The same store in memory: when IndexedDB is missing or refused (some private modes), and in tests. */
export function memoryDeviceStore(): DeviceStore {
  const items = new Map<number, OutboxItem>();
  const copies = new Map<string, SavedCopy>();
  let next = 1;
  return {
    items: async () => [...items.values()].sort((a, b) => a.seq - b.seq),
    async add(item) {
      const saved = { ...item, seq: next++ } as OutboxItem;
      items.set(saved.seq, saved);
      return saved;
    },
    async put(item) {
      items.set(item.seq, item);
    },
    async remove(seq) {
      items.delete(seq);
    },
    copy: async <T>(id: string) => copies.get(id) as SavedCopy<T> | undefined,
    copiesOf: async <T>(slug: string) => [...copies.values()].filter((c) => c.slug === slug) as SavedCopy<T>[],
    async saveCopy(copy) {
      copies.set(copy.id, copy);
    },
    async clearCopies() {
      copies.clear();
    },
  };
}

let store: Promise<DeviceStore> | undefined;

/** The phone's store: IndexedDB, or memory where the browser refuses it (then nothing survives a reload). */
export function deviceStore(): Promise<DeviceStore> {
  store ??= openDeviceStore().catch((error: unknown) => {
    console.error('IndexedDB no disponible; lo guardado durará solo mientras la página esté abierta', error);
    return memoryDeviceStore();
  });
  return store;
}

/** Tests start each case with a fresh store. */
export function resetDeviceStoreForTests(): void {
  store = undefined;
}
