import { describe, expect, it } from 'vitest';
import { createToastLimit } from './toast-limit';

describe('createToastLimit', () => {
  it('closes the oldest toast on a phone when a third one opens, and never queues the newcomer', () => {
    const dismissed: (string | number)[] = [];
    const onChange = createToastLimit({ limit: 2, applies: () => true, dismiss: (id) => dismissed.push(id) });
    onChange({ id: 'voto', status: 'added' });
    onChange({ id: 'foto-1', status: 'added' });
    expect(dismissed).toEqual([]);
    onChange({ id: 'foto-2', status: 'added' });
    expect(dismissed).toEqual(['voto']);
    // The closed one leaving later changes nothing; another newcomer closes the next oldest.
    onChange({ id: 'voto', status: 'removed' });
    onChange({ id: 'foto-3', status: 'added' });
    expect(dismissed).toEqual(['voto', 'foto-1']);
  });

  it('counts only toasts still open: one closed by hand frees its place', () => {
    const dismissed: (string | number)[] = [];
    const onChange = createToastLimit({ limit: 2, applies: () => true, dismiss: (id) => dismissed.push(id) });
    onChange({ id: 1, status: 'added' });
    onChange({ id: 2, status: 'added' });
    onChange({ id: 1, status: 'removed' });
    onChange({ id: 3, status: 'added' });
    expect(dismissed).toEqual([]);
    onChange({ id: 2, status: 'updated' });
    expect(dismissed).toEqual([]);
  });

  it('leaves a wide screen alone', () => {
    const dismissed: (string | number)[] = [];
    const onChange = createToastLimit({ limit: 2, applies: () => false, dismiss: (id) => dismissed.push(id) });
    for (const id of [1, 2, 3, 4]) onChange({ id, status: 'added' });
    expect(dismissed).toEqual([]);
  });
});
