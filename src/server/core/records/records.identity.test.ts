import { describe, expect, it } from 'vitest';
import { normalizedName, normalizedPhone, personKey } from './records.identity';

describe('who a record is about', () => {
  it('is the same person whatever the case, accents, spaces or way of writing the phone', () => {
    const same = [
      ['María José Pérez', '0414-612.34.56'],
      ['  MARIA   JOSE PEREZ ', '+58 414 612 34 56'],
      ['maría\tjosé\u00a0pérez', '(0414) 6123456'],
    ];
    const keys = new Set(same.map(([n, t]) => personKey(n as string, t as string)));
    expect(keys).toEqual(new Set(['maria jose perez\u000104146123456']));
    expect(personKey('María José Pérez', '0414-6123457')).not.toBe([...keys][0]);
    expect(personKey('María Pérez', '0414-6123456')).not.toBe([...keys][0]);
    expect(normalizedName('Ñandú Añez')).toBe('nandu anez');
    expect(normalizedPhone('4146123456')).toBe('4146123456');
  });

  it('keeps the name and the phone apart', () => {
    expect(personKey('Ana 1', '23')).not.toBe(personKey('Ana', '123'));
  });
});
