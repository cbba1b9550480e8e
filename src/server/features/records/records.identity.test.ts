import { describe, expect, it } from 'vitest';
import { normalizedName, normalizedPhone, PeopleByFingerprint, personFingerprint, personKey } from './records.identity';

describe('who a record is about', () => {
  it('is the same person whatever the case, accents, spaces or way of writing the phone', () => {
    const same = [
      ['María José Pérez', '0414-612.34.56'],
      ['  MARIA   JOSE PEREZ ', '+58 414 612 34 56'],
      ['maría\tjosé\u00a0pérez', '(0414) 6123456'],
    ];
    const keys = new Set(same.map(([n, t]) => personKey(n as string, t as string)));
    const prints = new Set(same.map(([n, t]) => personFingerprint(n as string, t as string)));
    expect(keys).toEqual(new Set(['maria jose perez\u000104146123456']));
    expect(prints.size).toBe(1);
    expect(personFingerprint('María José Pérez', '0414-6123457')).not.toBe([...prints][0]);
    expect(personFingerprint('María Pérez', '0414-6123456')).not.toBe([...prints][0]);
    expect(normalizedName('Ñandú Añez')).toBe('nandu anez');
    expect(normalizedPhone('4146123456')).toBe('4146123456');
  });

  it('is the 53-bit hash of the person key, read from its name and phone without joining them', () => {
    const hashOf = (key: string) => {
      let h1 = 0x811c9dc5;
      let h2 = 0x9747b28c;
      for (let i = 0; i < key.length; i++) {
        const c = key.charCodeAt(i);
        h1 = Math.imul(h1 ^ c, 0x01000193);
        h2 = Math.imul(h2 ^ c, 0x5bd1e995);
        h2 ^= h2 >>> 13;
      }
      return (h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff);
    };
    for (const [n, t] of [
      ['María José Pérez', '0414-612.34.56'],
      ['', ''],
      ['Ana', ''],
      ['', '0414'],
      ['Ñandú  Añez ', '+58 414 6123456'],
    ] as const)
      expect(personFingerprint(n, t)).toBe(hashOf(personKey(n, t)));
    // The separator keeps the name's end and the phone's start apart.
    expect(personFingerprint('Ana 1', '23')).not.toBe(personFingerprint('Ana', '123'));
  });

  it('gives 200,000 different people 200,000 different fingerprints', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 200_000; i++)
      seen.add(personFingerprint(`Persona ${i % 977} Apellido ${i % 131}`, `0414-${i}`));
    expect(seen.size).toBe(200_000);
    for (const value of seen) {
      expect(Number.isSafeInteger(value)).toBe(true);
      break;
    }
  });
});

describe('PeopleByFingerprint', () => {
  it('answers what a Map would for 200,000 people, repeated ones included, keeping the first number given', () => {
    const people = new PeopleByFingerprint();
    const map = new Map<number, number>();
    for (let i = 1; i <= 200_000; i++) {
      // Every tenth row repeats an earlier person.
      const who = i % 10 === 0 ? i - 7 : i;
      const key = personFingerprint(`Persona ${who}`, `0414-${who}`);
      people.add(key, i);
      if (!map.has(key)) map.set(key, i);
    }
    expect(people.size).toBe(map.size);
    for (const [key, value] of map) if (people.get(key) !== value) expect(people.get(key)).toBe(value);
    expect(people.get(personFingerprint('Nadie', '0000'))).toBeUndefined();
  });

  it('tells apart fingerprints that share their low 32 bits or their first slot', () => {
    const people = new PeopleByFingerprint(4);
    const low = 0x1234;
    people.add(low, 1);
    people.add(2 ** 32 + low, 2);
    people.add(2 ** 52 + low, 3);
    // Same first slot (low & 3), different keys; the largest fingerprint there is, and 0.
    people.add(low + 4, 4);
    people.add(2 ** 53 - 1, 5);
    people.add(0, 6);
    expect([low, 2 ** 32 + low, 2 ** 52 + low, low + 4, 2 ** 53 - 1, 0].map((k) => people.get(k))).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    expect(people.get(2 ** 33 + low)).toBeUndefined();
    people.add(2 ** 32 + low, 9);
    expect(people.get(2 ** 32 + low)).toBe(2);
    expect(people.size).toBe(6);
  });

  it('refuses what it cannot keep instead of keeping it wrong', () => {
    const people = new PeopleByFingerprint();
    expect(() => people.add(1, 0)).toThrow(RangeError);
    expect(() => people.add(1, 2 ** 31)).toThrow(RangeError);
    expect(() => people.add(-1, 1)).toThrow(RangeError);
    expect(() => people.add(2 ** 53, 1)).toThrow(RangeError);
    expect(() => people.add(1.5, 1)).toThrow(RangeError);
    expect(() => new PeopleByFingerprint(1000)).toThrow(RangeError);
    expect(people.size).toBe(0);
  });
});
