import { foldText } from '#server/platform/lib/text';

const NOT_DIGITS = /\D/g;
const ONLY_DIGITS = /^\d*$/;
const UNTIDY_SPACES = /\s\s|[^\S ]|^\s|\s$/;
const SPACES = /\s+/g;

/**
 * The phone as digits, the same however it was written: '0414-612.34.56', '(0414) 6123456' and
 * '+58 414 6123456' are one number (Venezuela's +58 becomes the national leading 0).
 */
export function normalizedPhone(telefono: string): string {
  const digits = ONLY_DIGITS.test(telefono) ? telefono : telefono.replace(NOT_DIGITS, '');
  return digits.length === 12 && digits.startsWith('58') ? `0${digits.slice(2)}` : digits;
}

/** The name without accents, case or extra spaces: 'MARÍA  Pérez' and 'maria perez' are one person. */
export function normalizedName(nombre: string): string {
  const folded = foldText(nombre);
  return UNTIDY_SPACES.test(folded) ? folded.replace(SPACES, ' ').trim() : folded;
}

/**
 * Who a record is about, for duplicate detection: the same name and the same phone (in the same
 * department; the caller keeps departments apart).
 */
export function personKey(nombre: string, telefono: string): string {
  return `${normalizedName(nombre)}\u0001${normalizedPhone(telefono)}`;
}

/**
 * A 53-bit fingerprint of personKey: a number instead of a string, so an import holds its 100,000
 * people (and the municipality's records) in a few megabytes. Two different people share one only by
 * chance, about once in two million imports of 100,000 rows; such a row would show up among the
 * duplicates of the report.
 */
export function personFingerprint(nombre: string, telefono: string): number {
  const key = personKey(nombre, telefono);
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 13;
  }
  return (h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff);
}
