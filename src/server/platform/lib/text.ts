// Text helpers the CSV import and the Airtable import share.

/** Any text, the long way: Unicode decomposition, combining accents dropped, lowercase. */
const foldAnyText = (value: string) =>
  value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/**
 * Each Latin-1 character (U+0000 to U+00FF) folded the long way, once. None of them combines with its
 * neighbours or lowercases differently beside them, so a text made only of them folds character by
 * character.
 */
const LATIN1_FOLDED = Array.from({ length: 256 }, (_, code) => foldAnyText(String.fromCharCode(code)));

/** Lowercase without accents: "María Pérez" and "maria perez" find each other. */
export function foldText(value: string): string {
  // Nearly everything an import holds is Latin-1 (Spanish names, communities, phones): its accented
  // letters come from a table, since Unicode normalisation costs more than everything else done to a
  // row. Anything beyond Latin-1 takes the long way.
  let folded = '';
  let from = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x80) continue;
    if (code > 0xff) return foldAnyText(value);
    folded += value.slice(from, i) + (LATIN1_FOLDED[code] as string);
    from = i + 1;
  }
  return (from === 0 ? value : folded + value.slice(from)).toLowerCase();
}

/** 'Machiques de Perijá', 'MACHIQUES-DE-PERIJA' and 'machiques de perija' name one municipality. */
export const departmentKey = (value: string) =>
  foldText(value)
    .trim()
    .replace(/[\s_]+/g, '-');

/** A value quoted in a reason shown to people, cut short when long. */
export const quoteValue = (value: string) => `«${value.length > 60 ? `${value.slice(0, 59)}…` : value}»`;
