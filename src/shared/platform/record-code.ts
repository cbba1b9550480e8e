/**
 * A record's short code (its `short_code`): what a validator types in an SMS vote ('V 7K2M9X FA LC')
 * and reads on the record's card. Crockford's base-32 alphabet, which leaves out I, L, O and U, so that
 * no two characters look alike; a code typed with O is read with 0, and I or L with 1. Five characters
 * come from the record's id, scrambled so that neighbouring records do not get neighbouring codes, and a
 * sixth checks them: one mistyped character (or two swapped) makes a code that is no record's.
 */
export const RECORD_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Five characters hold 2^25 ids; a larger id gets seven (never the same length, so never the same code). */
const SHORT_BITS = 25;
const LONG_BITS = 35;
/** Odd multipliers: multiplying by one is a one-to-one map of the numbers below 2^bits. */
const SHORT_MULTIPLIER = 0x1c3_a5e5n;
const LONG_MULTIPLIER = 0x3_5a4e_3c6bn;

function checkCharacter(data: string): string {
  // Weights 1, 2, 3… modulo the prime 31: a change of one character, or two swapped, changes the sum.
  let sum = 0;
  for (let i = 0; i < data.length; i++) sum += (i + 1) * RECORD_CODE_ALPHABET.indexOf(data[i] as string);
  return RECORD_CODE_ALPHABET[sum % 31] as string;
}

/** The short code of the record with this id. */
export function recordCodeFor(id: number): string {
  const bits = id < 2 ** SHORT_BITS ? SHORT_BITS : LONG_BITS;
  const multiplier = bits === SHORT_BITS ? SHORT_MULTIPLIER : LONG_MULTIPLIER;
  const size = 1n << BigInt(bits);
  let value = (BigInt(id) * multiplier) % size;
  let data = '';
  for (let i = 0; i < bits / 5; i++) {
    data = RECORD_CODE_ALPHABET[Number(value & 31n)] + data;
    value >>= 5n;
  }
  return data + checkCharacter(data);
}

/**
 * A code as someone typed it, in its stored form: upper case, without spaces or dashes, O read as 0 and
 * I or L as 1. Undefined when it cannot be any record's code (wrong length, a character outside the
 * alphabet, or a check character that does not match).
 */
export function normaliseRecordCode(typed: string): string | undefined {
  const code = typed
    .toUpperCase()
    .replace(/[\s\-.]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (code.length !== 6 && code.length !== 8) return undefined;
  for (const c of code) if (!RECORD_CODE_ALPHABET.includes(c)) return undefined;
  const data = code.slice(0, -1);
  return checkCharacter(data) === code.slice(-1) ? code : undefined;
}
