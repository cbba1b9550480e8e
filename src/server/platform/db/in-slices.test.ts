import { describe, expect, it } from 'vitest';
import { inSlices, VALUES_PER_STATEMENT } from './in-slices';

describe('inSlices', () => {
  it('cuts values into slices of at most the statement size, in order, none empty', () => {
    const ids = Array.from({ length: 2 * VALUES_PER_STATEMENT + 1 }, (_, i) => i);
    const slices = inSlices(ids);
    expect(slices.map((s) => s.length)).toEqual([VALUES_PER_STATEMENT, VALUES_PER_STATEMENT, 1]);
    expect(slices.flat()).toEqual(ids);
    expect(inSlices([])).toEqual([]);
    expect(inSlices(['a', 'b', 'c'], 2)).toEqual([['a', 'b'], ['c']]);
  });
});
