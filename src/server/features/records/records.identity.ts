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
  // The hash of personKey's text, read from its two parts (no joined string to build for each row).
  const name = normalizedName(nombre);
  const phone = normalizedPhone(telefono);
  const nameLength = name.length;
  const keyLength = nameLength + 1 + phone.length;
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let i = 0; i < keyLength; i++) {
    const c = i < nameLength ? name.charCodeAt(i) : i === nameLength ? 1 : phone.charCodeAt(i - nameLength - 1);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 13;
  }
  return (h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff);
}

/**
 * People by fingerprint (personFingerprint) -> a number from 1 to 2^31 - 1 (a record's id, a line of a
 * file), as an import keeps them: the first number given for a person stays. Open addressing in typed
 * arrays, 12 bytes a slot and at most three slots in four used: against about 45 bytes for an entry of a
 * Map with its boxed 53-bit key, and nothing for the garbage collector to trace or carry into the old
 * generation.
 */
export class PeopleByFingerprint {
  #high: Uint32Array;
  #low: Uint32Array;
  /** 0 marks an empty slot. */
  #values: Int32Array;
  #size = 0;

  constructor(capacity = 1024) {
    if (capacity < 2 || (capacity & (capacity - 1)) !== 0) throw new RangeError('capacity must be a power of two');
    this.#high = new Uint32Array(capacity);
    this.#low = new Uint32Array(capacity);
    this.#values = new Int32Array(capacity);
  }

  get size(): number {
    return this.#size;
  }

  get(fingerprint: number): number | undefined {
    const low = fingerprint >>> 0;
    const high = (fingerprint - low) / 0x100000000;
    const mask = this.#values.length - 1;
    for (let i = low & mask; ; i = (i + 1) & mask) {
      const value = this.#values[i] as number;
      if (value === 0) return undefined;
      if (this.#low[i] === low && this.#high[i] === high) return value;
    }
  }

  /** Keeps `value` for the person unless one was kept already. */
  add(fingerprint: number, value: number): void {
    if (!Number.isSafeInteger(fingerprint) || fingerprint < 0)
      throw new RangeError(`not a fingerprint: ${fingerprint}`);
    if (!Number.isInteger(value) || value < 1 || value > 0x7fffffff)
      throw new RangeError(`value out of range: ${value}`);
    if ((this.#size + 1) * 4 > this.#values.length * 3) this.#grow();
    this.#put(fingerprint, value);
  }

  #put(fingerprint: number, value: number): void {
    const low = fingerprint >>> 0;
    const high = (fingerprint - low) / 0x100000000;
    const mask = this.#values.length - 1;
    for (let i = low & mask; ; i = (i + 1) & mask) {
      if (this.#values[i] === 0) {
        this.#low[i] = low;
        this.#high[i] = high;
        this.#values[i] = value;
        this.#size++;
        return;
      }
      if (this.#low[i] === low && this.#high[i] === high) return;
    }
  }

  #grow(): void {
    const high = this.#high;
    const low = this.#low;
    const values = this.#values;
    const capacity = values.length * 2;
    this.#high = new Uint32Array(capacity);
    this.#low = new Uint32Array(capacity);
    this.#values = new Int32Array(capacity);
    this.#size = 0;
    for (let i = 0; i < values.length; i++) {
      const value = values[i] as number;
      if (value !== 0) this.#put((high[i] as number) * 0x100000000 + (low[i] as number), value);
    }
  }
}
