import { foldText } from './records.search';

/**
 * The phone as digits, the same however it was written: '0414-612.34.56', '(0414) 6123456' and
 * '+58 414 6123456' are one number (Venezuela's +58 becomes the national leading 0).
 */
export function normalizedPhone(telefono: string): string {
  const digits = telefono.replace(/\D/g, '');
  return digits.length === 12 && digits.startsWith('58') ? `0${digits.slice(2)}` : digits;
}

/** The name without accents, case or extra spaces: 'MARÍA  Pérez' and 'maria perez' are one person. */
export function normalizedName(nombre: string): string {
  return foldText(nombre).replace(/\s+/g, ' ').trim();
}

/**
 * Who a record is about, for duplicate detection: the same name and the same phone (in the same
 * department; the caller keeps departments apart).
 */
export function personKey(nombre: string, telefono: string): string {
  return `${normalizedName(nombre)}\u0001${normalizedPhone(telefono)}`;
}
