import type { RecordsPage } from '#shared/features/records/records';
import type { ProcedureRecord } from '#shared/platform/records';
import { deviceStore } from './device-store';

/**
 * Copies of the last lists a validator saw, kept on the phone so the validation page opens without a
 * connection (docs/decisions/025). Only what the server answered; signing out forgets them all.
 */

export const pageCopyId = (slug: string, validated: boolean, after: number | undefined) =>
  `page|${slug}|${validated ? 1 : 0}|${after ?? 0}`;
export const summaryCopyId = (slug: string) => `summary|${slug}`;
export const CANDIDATES_COPY_ID = 'candidates';

/** Saves an answer; a phone that cannot store it just has no copy (never an error for the page). */
export function saveCopy(id: string, slug: string | null, data: unknown, now = Date.now()): void {
  void deviceStore()
    .then((store) => store.saveCopy({ id, slug, savedAt: now, data }))
    .catch((error: unknown) => console.error('no se pudo guardar la copia', id, error));
}

/** The saved answer and when it was saved, if any. */
export async function readCopy<T>(id: string): Promise<{ data: T; savedAt: number } | undefined> {
  const copy = await (await deviceStore()).copy<T>(id);
  return copy && { data: copy.data, savedAt: copy.savedAt };
}

/** Folds text the way the server's search does (records.search.ts): lowercase, no accents. */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/**
 * Searches the saved pages of a department (offline) as the server would: the whole query, folded, in
 * the name, phone (also as bare digits), community or UBCH; a phone typed with dashes matches the digits.
 */
export async function searchCopies(
  slug: string,
  validated: boolean,
  q: string,
): Promise<{ page: RecordsPage; savedAt: number } | undefined> {
  const prefix = `page|${slug}|${validated ? 1 : 0}|`;
  const copies = (await (await deviceStore()).copiesOf<RecordsPage>(slug)).filter((c) => c.id.startsWith(prefix));
  if (copies.length === 0) return undefined;
  const folded = fold(q).trim();
  const wanted = /^[\d\s\-().+]+$/.test(folded) ? folded.replace(/\D/g, '') : folded;
  const seen = new Set<number>();
  const items: ProcedureRecord[] = [];
  for (const copy of copies) {
    for (const record of copy.data.items) {
      if (seen.has(record.id)) continue;
      seen.add(record.id);
      const text = [record.nombre, record.telefono, record.telefono.replace(/\D/g, ''), record.comunidad, record.ubch]
        .map(fold)
        .join(' | ');
      if (text.includes(wanted)) items.push(record);
    }
  }
  items.sort((a, b) => a.id - b.id);
  return { page: { items, nextCursor: null }, savedAt: Math.min(...copies.map((c) => c.savedAt)) };
}

/** Puts the server's answer for one record into the saved pages too, as into the lists on screen. */
export async function patchSavedRecord(slug: string, record: ProcedureRecord): Promise<void> {
  const store = await deviceStore();
  for (const copy of await store.copiesOf<RecordsPage>(slug)) {
    if (!copy.id.startsWith('page|')) continue;
    const index = copy.data.items.findIndex((r) => r.id === record.id);
    if (index < 0) continue;
    const items = copy.data.items.slice();
    items[index] = record;
    await store.saveCopy({ ...copy, data: { ...copy.data, items } });
  }
}

/** Sign-out: the phone forgets every list it kept (names and phones). */
export async function forgetCopies(): Promise<void> {
  await (await deviceStore()).clearCopies();
}
