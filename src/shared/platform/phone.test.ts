import { describe, expect, it } from 'vitest';
import { normalisePhone } from './phone';

describe('normalisePhone', () => {
  it('reads a Venezuelan mobile however it is written as one number', () => {
    for (const typed of [
      '0414-123 45 67',
      '04141234567',
      '414 1234567',
      '58 414 1234567',
      '+58 414-1234567',
      '(0414) 123.45.67',
      '0058 414 1234567',
    ]) {
      expect(normalisePhone(typed)).toBe('+584141234567');
    }
  });

  it('keeps another country’s number after its + and refuses what is not a number', () => {
    expect(normalisePhone('+1 650 555 1212')).toBe('+16505551212');
    for (const typed of ['', 'abc', '12-34', '0414-123', '+12']) expect(normalisePhone(typed)).toBeUndefined();
  });
});
