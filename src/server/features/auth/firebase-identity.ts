// What a verified Firebase ID token proves, and why one was refused. Apart from firebase-token.ts so the
// sign-in service can name them without loading the JOSE library when Firebase is not in use.

export interface FirebaseIdentity {
  uid: string;
  email: string;
}

/** Why a token was refused: for the log only; the person always sees the same message. */
export class FirebaseTokenError extends Error {
  constructor(
    public readonly reason: string,
    /** True when Google's keys could not be fetched: our outage, not a bad token. */
    public readonly keysUnavailable = false,
  ) {
    super(reason);
    this.name = 'FirebaseTokenError';
  }
}
