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

/** Entries per block of PeopleByFingerprint (4,096): blocks are added as it fills, never copied. */
const BLOCK_BITS = 12;
const BLOCK = 1 << BLOCK_BITS;

/**
 * People by fingerprint (personFingerprint) -> a number from 1 to 2^31 - 1 (a record's id, a line of a
 * file), as an import keeps them: the first number given for a person stays. A hash table in typed
 * arrays: each entry (fingerprint, number, next in its chain) takes 16 bytes in blocks that are added
 * and never copied, and each bucket 4 bytes, at most one entry a bucket on average. A Map takes about 45
 * bytes an entry with its boxed 53-bit key, and leaves its smaller tables behind as garbage each time it
 * grows, which only a full collection frees (none ran during the benchmark's imports; decision 059).
 */
export class PeopleByFingerprint {
  #keys: Float64Array[] = [];
  #values: Int32Array[] = [];
  /** Per entry, the entry after it in its bucket, plus one (0 ends the chain). */
  #next: Int32Array[] = [];
  /** Per bucket, its first entry, plus one (0: empty). */
  #buckets: Int32Array;
  #size = 0;

  constructor(buckets = 1024) {
    if (buckets < 2 || (buckets & (buckets - 1)) !== 0) throw new RangeError('buckets must be a power of two');
    this.#buckets = new Int32Array(buckets);
  }

  get size(): number {
    return this.#size;
  }

  get(fingerprint: number): number | undefined {
    const entry = this.#find(fingerprint);
    return entry < 0 ? undefined : (this.#values[entry >>> BLOCK_BITS] as Int32Array)[entry & (BLOCK - 1)];
  }

  /** Keeps `value` for the person unless one was kept already. */
  add(fingerprint: number, value: number): void {
    if (!Number.isSafeInteger(fingerprint) || fingerprint < 0)
      throw new RangeError(`not a fingerprint: ${fingerprint}`);
    if (!Number.isInteger(value) || value < 1 || value > 0x7fffffff)
      throw new RangeError(`value out of range: ${value}`);
    if (this.#find(fingerprint) >= 0) return;
    const entry = this.#size;
    const offset = entry & (BLOCK - 1);
    if (offset === 0) {
      this.#keys.push(new Float64Array(BLOCK));
      this.#values.push(new Int32Array(BLOCK));
      this.#next.push(new Int32Array(BLOCK));
    }
    const block = entry >>> BLOCK_BITS;
    (this.#keys[block] as Float64Array)[offset] = fingerprint;
    (this.#values[block] as Int32Array)[offset] = value;
    this.#size++;
    if (this.#size > this.#buckets.length) this.#rebucket(this.#buckets.length * 2);
    else this.#link(entry, fingerprint);
  }

  /** The entry holding the fingerprint, or -1. */
  #find(fingerprint: number): number {
    for (let e = this.#buckets[(fingerprint >>> 0) & (this.#buckets.length - 1)] as number; e !== 0; ) {
      const entry = e - 1;
      const block = entry >>> BLOCK_BITS;
      const offset = entry & (BLOCK - 1);
      if ((this.#keys[block] as Float64Array)[offset] === fingerprint) return entry;
      e = (this.#next[block] as Int32Array)[offset] as number;
    }
    return -1;
  }

  #link(entry: number, fingerprint: number): void {
    const bucket = (fingerprint >>> 0) & (this.#buckets.length - 1);
    (this.#next[entry >>> BLOCK_BITS] as Int32Array)[entry & (BLOCK - 1)] = this.#buckets[bucket] as number;
    this.#buckets[bucket] = entry + 1;
  }

  /** Twice the buckets, every entry linked again (entries stay where they are). */
  #rebucket(buckets: number): void {
    this.#buckets = new Int32Array(buckets);
    for (let entry = 0; entry < this.#size; entry++) {
      this.#link(entry, (this.#keys[entry >>> BLOCK_BITS] as Float64Array)[entry & (BLOCK - 1)] as number);
    }
  }
}
