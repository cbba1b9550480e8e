import { describe, expect, it } from 'vitest';
import { normalizedName, normalizedPhone, personFingerprint, personKey } from './records.identity';

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
