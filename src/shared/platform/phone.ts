/**
 * A mobile number in one form, so that the numbers a validator's account lists and the number an SMS
 * comes from compare equal however each was written. Venezuelan numbers are written 0414-123 45 67,
 * 414 1234567, 58 414 1234567 or +58 414 1234567: all of them are +584141234567. A number written with
 * another country's + prefix is kept as its digits after the +. Undefined for anything that is not a
 * phone number (too short, too long, letters).
 */
export function normalisePhone(typed: string): string | undefined {
  const trimmed = typed.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return undefined;
  const international = trimmed.startsWith('+') || trimmed.startsWith('00');
  let digits = trimmed.replace(/\D/g, '');
  if (trimmed.startsWith('00')) digits = digits.slice(2);
  if (international) return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : undefined;
  // Venezuela: 0 + ten digits (the national form), 58 + ten digits, or the ten digits alone.
  if (digits.length === 11 && digits.startsWith('0')) return `+58${digits.slice(1)}`;
  if (digits.length === 12 && digits.startsWith('58')) return `+${digits}`;
  if (digits.length === 10 && !digits.startsWith('0')) return `+58${digits}`;
  return undefined;
}
