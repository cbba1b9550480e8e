import { describe, expect, it } from 'vitest';
import { normaliseRecordCode, RECORD_CODE_ALPHABET, recordCodeFor } from './record-code';

describe('record codes', () => {
  it('gives each id its own six characters of an alphabet without I, L, O or U', () => {
    const seen = new Set<string>();
    for (let id = 1; id <= 20_000; id++) {
      const code = recordCodeFor(id);
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{6}$/);
      seen.add(code);
    }
    expect(seen.size).toBe(20_000);
    expect(RECORD_CODE_ALPHABET).not.toMatch(/[ILOU]/);
    expect(recordCodeFor(2 ** 25)).toHaveLength(8);
  });

  it('reads a code typed in lower case, with O for 0, I or L for 1, spaces and dashes', () => {
    const code = recordCodeFor(17);
    const typed = code.replace(/0/g, 'o').replace(/1/g, 'l').toLowerCase();
    expect(normaliseRecordCode(` ${typed.slice(0, 3)}-${typed.slice(3)} `)).toBe(code);
  });

  it('refuses a code with one character changed or two swapped, which could be another record’s', () => {
    let refused = 0;
    let tried = 0;
    for (let id = 1; id <= 500; id++) {
      const code = recordCodeFor(id);
      for (let i = 0; i < 5; i++) {
        const swapped = code.slice(0, i) + code[i + 1] + code[i] + code.slice(i + 2);
        if (swapped === code) continue;
        tried++;
        if (normaliseRecordCode(swapped) === undefined) refused++;
      }
    }
    // Every swap of two different neighbours is refused, but when a character and its neighbour are
    // 0 and Z (the same modulo 31), which is rare.
    expect(refused / tried).toBeGreaterThan(0.99);
  });
});
