import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { isSigningOut, LOGOUT_MUTATION_KEY } from './logout';

describe('isSigningOut', () => {
  it('is true while the sign-out runs and false once it has ended, so a 401 meanwhile is not a session gone elsewhere', async () => {
    const queryClient = new QueryClient();
    let answer: (value: unknown) => void = () => undefined;
    const reply = new Promise((resolve) => {
      answer = resolve;
    });
    const running = queryClient
      .getMutationCache()
      .build(queryClient, {
        mutationKey: LOGOUT_MUTATION_KEY,
        networkMode: 'always',
        mutationFn: () => reply,
      })
      .execute(undefined);
    expect(isSigningOut(queryClient)).toBe(true);
    answer({ redirectTo: '/' });
    await running;
    expect(isSigningOut(queryClient)).toBe(false);
    // Another change running is not a sign-out.
    void queryClient
      .getMutationCache()
      .build(queryClient, { networkMode: 'always', mutationFn: () => new Promise(() => undefined) })
      .execute(undefined);
    expect(isSigningOut(queryClient)).toBe(false);
  });
});
