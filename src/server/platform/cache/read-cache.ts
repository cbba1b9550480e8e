/**
 * A short-lived cache for hot public reads, one per database. Writes through this process clear it
 * at once; other instances' writes show within `ttlMs`. Bounded: it forgets everything when full.
 */
export function createReadCache<Owner extends object, T>(ttlMs: number, maxEntries = 200) {
  const stores = new WeakMap<Owner, Map<string, { value: T; at: number }>>();
  return {
    async get(owner: Owner, key: string, load: () => Promise<T>): Promise<T> {
      let store = stores.get(owner);
      if (!store) {
        store = new Map();
        stores.set(owner, store);
      }
      const hit = store.get(key);
      const now = Date.now();
      if (hit && now - hit.at < ttlMs) return hit.value;
      const value = await load();
      if (store.size >= maxEntries) store.clear();
      store.set(key, { value, at: now });
      return value;
    },
    clear(owner: Owner): void {
      stores.get(owner)?.clear();
    },
  };
}
