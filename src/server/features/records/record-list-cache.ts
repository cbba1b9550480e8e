/**
 * The validators' lists, serialised, for one second. On election day hundreds of validators of a
 * municipality page through the same list: one query and one serialisation serve them all.
 *
 * Freshness: a change made through this instance invalidates at once: any state-changing request
 * under `/api/validation/<slug>/` drops that department's pages, any under `/api/admin/` drops all
 * (record edits, imports, department changes). A change made elsewhere (another instance, the command
 * line) shows within `ttlMs`; the database still decides every vote and photo, so a stale page can at
 * worst offer a button that answers 409 with its clear message. A read that began before an
 * invalidation never stores its (older) result: each department has a generation number.
 */
export interface RecordListCache {
  get(slug: string, key: string): string | undefined;
  /** The department's generation, taken before reading the database. */
  generation(slug: string): number;
  set(slug: string, key: string, body: string, generation: number): void;
  /** Called for every request before its answer is sent (after its transaction committed). */
  afterRequest(method: string, url: string): void;
}

export function createRecordListCache(options: { ttlMs?: number; maxEntries?: number } = {}): RecordListCache {
  const ttlMs = options.ttlMs ?? 1_000;
  const maxEntries = options.maxEntries ?? 2_000;
  const entries = new Map<string, { body: string; at: number }>();
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
    get(slug, key) {
      const hit = entries.get(entryKey(slug, key));
      if (!hit) return undefined;
      if (Date.now() - hit.at >= ttlMs) {
        entries.delete(entryKey(slug, key));
        return undefined;
      }
      return hit.body;
    },
    generation: generationOf,
    set(slug, key, body, generation) {
      if (generation !== generationOf(slug)) return;
      if (entries.size >= maxEntries) entries.clear();
      entries.set(entryKey(slug, key), { body, at: Date.now() });
    },
    afterRequest(method, url) {
      if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return;
      const validation = /^\/api\/validation\/([^/?#]+)/.exec(url);
      if (validation) invalidate(validation[1]!.toLowerCase());
      else if (url.startsWith('/api/admin/')) invalidateAll();
    },
  };
}
