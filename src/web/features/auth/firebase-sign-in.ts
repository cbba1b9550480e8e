// The Firebase Auth SDK, loaded only on sites whose passwords Firebase checks (see firebase-session.ts).
import { FirebaseError, initializeApp } from 'firebase/app';
import {
  type Auth,
  connectAuthEmulator,
  initializeAuth,
  inMemoryPersistence,
  onAuthStateChanged,
  signInWithEmailAndPassword,
  signOut,
  type User,
} from 'firebase/auth';
import type { AuthProvider } from '#shared/features/auth/auth';
import { messages } from '#shared/platform/messages';
import { authMessages } from '#shared/platform/session';
import { ApiError } from '#web/platform/lib/api-client';

type FirebaseProvider = Extract<AuthProvider, { provider: 'firebase' }>;

let auth: Auth | undefined;
/** Who the SDK holds right now, as its auth-state listener reports it. */
let current: User | null = null;

function getFirebaseAuth(provider: FirebaseProvider): Auth {
  if (auth) return auth;
  // The web API key is all e-mail/password sign-in needs: no project id or auth domain reaches the page.
  const app = initializeApp({ apiKey: provider.apiKey }, 'comando');
  // In memory only: the Firebase tokens are needed once, to open our own session (an HttpOnly cookie).
  // Nothing lands in IndexedDB or localStorage, so no refresh token outlives the tab or our logout.
  // No popup/redirect resolver either: it is not used, and it would grow the chunk.
  auth = initializeAuth(app, { persistence: inMemoryPersistence });
  if (provider.emulatorUrl) connectAuthEmulator(auth, provider.emulatorUrl, { disableWarnings: true });
  onAuthStateChanged(auth, (user) => {
    current = user;
  });
  return auth;
}

/** The SDK's failures as the messages the login page shows (the spec's, where it has one). */
function toApiError(error: unknown): ApiError {
  const code = error instanceof FirebaseError ? error.code : '';
  switch (code) {
    case 'auth/invalid-credential':
    case 'auth/invalid-login-credentials':
    case 'auth/wrong-password':
    case 'auth/user-not-found':
    case 'auth/user-disabled':
    case 'auth/invalid-email':
      return new ApiError(401, authMessages.invalidCredentials);
    case 'auth/too-many-requests':
      return new ApiError(429, authMessages.tooManyAttempts);
    case 'auth/network-request-failed':
    case 'auth/timeout':
      return new ApiError(0, authMessages.providerUnreachable);
    default:
      // Anything else is ours to fix (bad API key, misconfigured project): logged, and a plain message.
      console.error(error);
      return new ApiError(500, messages.api.internal);
  }
}

/**
 * Signs in with Firebase Auth and answers the fresh ID token, to be sent once to our server. Whatever
 * the SDK held before is dropped first, so a token of another person can never be sent by mistake.
 */
export async function firebaseIdToken(provider: FirebaseProvider, email: string, password: string): Promise<string> {
  const firebaseAuth = getFirebaseAuth(provider);
  try {
    if (firebaseAuth.currentUser) await signOut(firebaseAuth);
    const credential = await signInWithEmailAndPassword(firebaseAuth, email, password);
    return await credential.user.getIdToken();
  } catch (error) {
    throw toApiError(error);
  }
}

/** Signs the SDK out (our logout, or our session gone). Nothing to do when it holds nobody. */
export async function signOutOfFirebase(): Promise<void> {
  if (auth && current) await signOut(auth);
}
