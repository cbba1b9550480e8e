import type { FirebaseLoginBody } from '#shared/features/auth/auth';
import type { Session } from '#shared/platform/session';
import { apiFetch } from '#web/platform/lib/api-client';

/** Sends the Firebase ID token once; the server verifies it and answers our own session. */
export const loginWithFirebase = (body: FirebaseLoginBody) =>
  apiFetch<Session>('/api/auth/firebase', { method: 'POST', body: JSON.stringify(body) });
