import { QueryClient } from '@tanstack/react-query';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Session } from '#shared/platform/session';
import {
  ANONYMOUS_SESSION,
  type ClientSession,
  getSessionQueryOptions,
  LOGOUT_MUTATION_KEY,
  SESSION_QUERY_KEY,
} from '#web/platform/session/get-session';
import { server } from '#web/testing/msw-server';

const answer = (session: Session) => server.use(http.get('*/api/auth/session', () => HttpResponse.json(session)));

describe('the session query', () => {
  it('keeps the mark of this tab’s own logout when the server, asked again, answers nobody', async () => {
    const client = new QueryClient();
    client.setQueryData<ClientSession>(SESSION_QUERY_KEY, { ...ANONYMOUS_SESSION, signedOut: true });
    answer(ANONYMOUS_SESSION);
    // Asked again while the page being left is still on screen: it must not send the person to /login.
    expect(await client.fetchQuery(getSessionQueryOptions())).toEqual({ ...ANONYMOUS_SESSION, signedOut: true });
  });

  it('marks an answer of nobody that arrives while this tab signs out: asked before the sign-out, answered after it', async () => {
    const client = new QueryClient();
    const signedIn: Session = {
      ...ANONYMOUS_SESSION,
      user: { email: 'ana@example.org', role: 'admin', mustChangePassword: false },
    };
    client.setQueryData<ClientSession>(SESSION_QUERY_KEY, signedIn);
    // The sign-out is on its way (its answer not yet acted on) when the server answers nobody.
    const signOut = client.getMutationCache().build(client, {
      mutationKey: LOGOUT_MUTATION_KEY,
      networkMode: 'always',
      mutationFn: () => new Promise(() => {}),
    });
    void signOut.execute(undefined);
    answer(ANONYMOUS_SESSION);
    // Without the mark, the page being left (Resultados) would send the person to /login?next=%2Fresultados.
    expect(await client.fetchQuery({ ...getSessionQueryOptions(), staleTime: 0 })).toEqual({
      ...ANONYMOUS_SESSION,
      signedOut: true,
    });
  });

  it('has no such mark otherwise, nor once someone is signed in again', async () => {
    const client = new QueryClient();
    answer(ANONYMOUS_SESSION);
    expect(await client.fetchQuery(getSessionQueryOptions())).toEqual(ANONYMOUS_SESSION);

    const signedIn: Session = {
      ...ANONYMOUS_SESSION,
      user: { email: 'ana@example.org', role: 'staff', mustChangePassword: false },
    };
    client.setQueryData<ClientSession>(SESSION_QUERY_KEY, { ...ANONYMOUS_SESSION, signedOut: true });
    answer(signedIn);
    expect(await client.fetchQuery({ ...getSessionQueryOptions(), staleTime: 0 })).toEqual(signedIn);
  });
});
