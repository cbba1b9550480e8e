import { type Browser, type BrowserContext, expect, type Page, request } from '@playwright/test';

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * Signed-in browser state per server and account, made once per worker: signing in through the login
 * form costs a page load, typing and a redirect (1–2 s, several on a busy machine), and only the specs
 * about signing in need to see it. The session itself is a real one: the API's own sign-in answers it.
 */
const states = new Map<string, Promise<StorageState>>();

async function signInThroughApi(origin: string, email: string, password: string): Promise<StorageState> {
  const api = await request.newContext({ baseURL: origin, extraHTTPHeaders: { origin } });
  try {
    const res = await api.post('/api/auth/login', { data: { email, password } });
    expect(res.status(), `inicio de sesión de ${email}: ${await res.text()}`).toBe(200);
    return await api.storageState();
  } finally {
    await api.dispose();
  }
}

/** Forgets the sessions made on a server that stops: another server may get its port later. */
export function forgetSessions(origin: string): void {
  for (const key of states.keys()) if (key.startsWith(`${origin} `)) states.delete(key);
}

/**
 * A browser context on `origin` holding a session of `email`, and a blank page in it (go where the test
 * starts). `fresh` signs in anew instead of sharing the worker's session of that account: for tests
 * whose session ends (sign-out, a reset, a disabled account) or that look at the sign-in itself.
 */
export async function signedInContext(
  browser: Browser,
  options: {
    origin: string;
    email: string;
    password: string;
    viewport?: { width: number; height: number };
    fresh?: boolean;
  },
): Promise<{ context: BrowserContext; page: Page }> {
  const key = `${options.origin} ${options.email}`;
  let state = options.fresh ? undefined : states.get(key);
  if (!state) {
    state = signInThroughApi(options.origin, options.email, options.password);
    if (!options.fresh) states.set(key, state);
    state.catch(() => states.delete(key));
  }
  const context = await browser.newContext({
    baseURL: options.origin,
    locale: 'es-VE',
    ...(options.viewport ? { viewport: options.viewport } : {}),
    storageState: await state,
  });
  return { context, page: await context.newPage() };
}

/**
 * Gives `page`'s context the worker's stored session of `email` on `origin` (made once through the API),
 * instead of signing in through the login form; the page stays where it is (go where the test starts).
 * For tests about something else than signing in, whose session does not end.
 */
export async function useStoredSession(page: Page, origin: string, email: string, password: string): Promise<void> {
  const key = `${origin} ${email}`;
  let state = states.get(key);
  if (!state) {
    state = signInThroughApi(origin, email, password);
    states.set(key, state);
    state.catch(() => states.delete(key));
  }
  await page.context().addCookies((await state).cookies);
}
