/**
 * The validators' lists, serialised, for about a second. On election day hundreds of validators of a
 * municipality page through the same list: one query and one serialisation serve them all.
 *
 * Freshness: a change made through this instance invalidates at once: any state-changing request
 * under `/api/validation/<slug>/` drops that department's pages, any under `/api/admin/` drops all
 * (record edits, imports, department changes). A change made elsewhere (another instance, the command
 * line) shows within `ttlMs`; the database still decides every vote and photo, so a stale page can at
 * worst offer a button that answers 409 with its clear message. A read that began before an
 * invalidation never stores its (older) result: each department has a generation number.
 *
 * Load: requests for a page that is being read wait for that read instead of repeating it, and each
 * page lives a slightly different time, so pages read together do not all expire in the same instant.
 */
export interface RecordListCache {
  /** The page from the cache, or from `load` (run once however many ask at the same time). */
  get(slug: string, key: string, load: () => Promise<string>): Promise<string>;
  /** Called for every request before its answer is sent (after its transaction committed). */
  afterRequest(method: string, url: string): void;
}

export function createRecordListCache(options: { ttlMs?: number; maxEntries?: number } = {}): RecordListCache {
  const ttlMs = options.ttlMs ?? 1_000;
  const maxEntries = options.maxEntries ?? 2_000;
  const entries = new Map<string, { body: string; expiresAt: number }>();
  const inflight = new Map<string, { generation: number; body: Promise<string> }>();
  const generations = new Map<string, number>();
  let everything = 0;

  const entryKey = (slug: string, key: string) => `${slug}\n${key}`;
  const generationOf = (slug: string) => everything + (generations.get(slug) ?? 0);

  function invalidate(slug: string) {
    generations.set(slug, (generations.get(slug) ?? 0) + 1);
    const prefix = `${slug}\n`;
    for (const k of entries.keys()) if (k.startsWith(prefix)) entries.delete(k);
  }

  function invalidateAll() {
    everything++;
    entries.clear();
  }

  return {
    async get(slug, key, load) {
      const id = entryKey(slug, key);
      const hit = entries.get(id);
      if (hit && Date.now() < hit.expiresAt) return hit.body;
      const generation = generationOf(slug);
      const running = inflight.get(id);
      if (running && running.generation === generation) return running.body;

      const body = load();
      inflight.set(id, { generation, body });
      try {
        const value = await body;
        if (generation === generationOf(slug)) {
          if (entries.size >= maxEntries) entries.clear();
          // 80–100 % of the time to live.
          entries.set(id, { body: value, expiresAt: Date.now() + ttlMs * (0.8 + Math.random() * 0.2) });
        }
        return value;
      } finally {
        if (inflight.get(id)?.body === body) inflight.delete(id);
      }
    },
    afterRequest(method, url) {
      if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return;
      const validation = /^\/api\/validation\/([^/?#]+)/.exec(url);
      if (validation) invalidate(validation[1]!.toLowerCase());
      else if (url.startsWith('/api/admin/')) invalidateAll();
    },
  };
}
