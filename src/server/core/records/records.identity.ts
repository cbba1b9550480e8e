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
