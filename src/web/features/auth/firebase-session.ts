import type { AuthProvider } from '#shared/features/auth/auth';

/**
 * The Firebase SDK (about 26 KB gzipped) is fetched only when the server says Firebase checks passwords, and
 * only once. Pages of a site with local passwords never download it.
 */
let sdk: Promise<typeof import('./firebase-sign-in')> | undefined;

export const loadFirebaseSignIn = () => {
  sdk ??= import('./firebase-sign-in').catch((error: unknown) => {
    sdk = undefined; // a failed download is tried again next time
    throw error;
  });
  return sdk;
};

/** Starts the download early (the login form is on screen), so 'Entrar' does not wait for it. */
export function preloadFirebaseSignIn(provider: AuthProvider | undefined): void {
  if (provider?.provider === 'firebase') void loadFirebaseSignIn().catch(() => undefined);
}

/** Signs the SDK out if this tab ever loaded it; otherwise it cannot hold anybody. */
export async function signOutOfFirebaseIfLoaded(): Promise<void> {
  if (!sdk) return;
  const { signOutOfFirebase } = await sdk;
  await signOutOfFirebase();
}
