/** A LIKE pattern that finds `text` anywhere, case-folded, with LIKE's own characters escaped (use `escape '\\'`). */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
