/*
 * localStorage for small facts a phone keeps between visits. A browser may refuse it (some private
 * modes, storage full): reading then finds nothing and writing keeps nothing, never an error.
 */

/** The value kept under `key`, or null. */
export function readLocal(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Keeps `value` under `key`, or forgets the key (null). */
export function writeLocal(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Refused: the fact is simply not kept.
  }
}
