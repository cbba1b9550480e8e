import { foldText } from '#server/platform/lib/text';

/** The stored search text of a record: folded fields, and the phone also as bare digits. */
export function recordSearchText(r: { nombre: string; telefono: string; comunidad: string; ubch: string }): string {
  return [r.nombre, r.telefono, r.telefono.replace(/\D/g, ''), r.comunidad, r.ubch].map(foldText).join(' | ');
}

/**
 * A LIKE pattern (escape character `\`) for a person's query, or undefined when there is nothing to
 * look for. A phone typed with dashes or spaces also matches the digits-only copy.
 */
export function searchPattern(query: string | undefined): string | undefined {
  const folded = foldText(query ?? '').trim();
  if (!folded) return undefined;
  const phoneLike = /^[\d\s\-().+]+$/.test(folded) ? folded.replace(/\D/g, '') : folded;
  const escaped = phoneLike.replace(/[\\%_]/g, (c) => `\\${c}`);
  return `%${escaped}%`;
}
