import {
  createRemoteJWKSet,
  errors,
  type JWTClaimVerificationOptions,
  type JWTPayload,
  jwtVerify,
  UnsecuredJWT,
} from 'jose';
import { type FirebaseIdentity, FirebaseTokenError } from './firebase-identity';

export { type FirebaseIdentity, FirebaseTokenError };

/** Seconds of clock difference tolerated between Google's servers and ours. */
export const FIREBASE_CLOCK_TOLERANCE_S = 30;
/** Firebase ID tokens live one hour; an older `iat` means a token that should not exist. */
const FIREBASE_TOKEN_MAX_AGE_S = 60 * 60;
/** Google rotates these keys about daily and publishes new ones hours ahead: refetching hourly is plenty. */
const JWKS_CACHE_MAX_AGE_MS = 60 * 60 * 1000;

export interface FirebaseTokenVerifierOptions {
  projectId: string;
  jwksUrl: string;
  /**
   * The official Auth emulator is configured (FIREBASE_AUTH_EMULATOR_HOST): its tokens are unsigned
   * (`alg: none`), and firebase-admin then accepts those and only those. Config refuses it in production.
   */
  emulatorTokens?: boolean;
  /**
   * The wall clock. Deliberately not the app's configurable clock: Google stamps tokens with real time,
   * and a demo or test server may run its business clock at another instant.
   */
  now?: () => Date;
}

/**
 * Verifies Firebase Auth ID tokens the way Google documents it: RS256 signature by one of the keys
 * published at `jwksUrl` (fetched once, then cached; an unknown `kid` triggers at most one refetch per
 * cooldown), audience = project id, issuer = https://securetoken.google.com/<project id>, `exp` in the
 * future, `iat` and `auth_time` in the past, `sub` non-empty. We also require an e-mail (our accounts
 * are found by it) and the e-mail/password sign-in method, the only one this app offers.
 * Unsigned tokens (`alg: none`, as the official emulator issues) are accepted only with
 * `emulatorTokens`, and then they are the only ones accepted, with every claim checked the same way.
 */
export function createFirebaseTokenVerifier(options: FirebaseTokenVerifierOptions) {
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl), {
    timeoutDuration: 5000,
    cooldownDuration: 30_000,
    cacheMaxAge: JWKS_CACHE_MAX_AGE_MS,
  });
  const issuer = `https://securetoken.google.com/${options.projectId}`;
  const now = options.now ?? (() => new Date());

  return async function verifyFirebaseIdToken(idToken: string): Promise<FirebaseIdentity> {
    const currentDate = now();
    const claims: JWTClaimVerificationOptions = {
      issuer,
      audience: options.projectId,
      requiredClaims: ['exp', 'iat', 'sub', 'auth_time'],
      clockTolerance: FIREBASE_CLOCK_TOLERANCE_S,
      maxTokenAge: FIREBASE_TOKEN_MAX_AGE_S,
      currentDate,
    };
    let payload: JWTPayload;
    if (options.emulatorTokens) {
      try {
        ({ payload } = UnsecuredJWT.decode(idToken, claims));
      } catch (error) {
        throw new FirebaseTokenError(`not an Auth emulator token: ${describeJoseError(error)}`);
      }
    } else {
      try {
        ({ payload } = await jwtVerify(idToken, jwks, { ...claims, algorithms: ['RS256'] }));
      } catch (error) {
        throw new FirebaseTokenError(describeJoseError(error), keysUnavailable(error));
      }
    }

    const nowS = Math.floor(currentDate.getTime() / 1000);
    if (typeof payload.sub !== 'string' || payload.sub.length === 0 || payload.sub.length > 128) {
      throw new FirebaseTokenError('sub is empty or too long');
    }
    const authTime = payload.auth_time;
    if (typeof authTime !== 'number' || authTime > nowS + FIREBASE_CLOCK_TOLERANCE_S) {
      throw new FirebaseTokenError('auth_time is missing or in the future');
    }
    if (typeof payload.email !== 'string' || payload.email.length === 0) {
      throw new FirebaseTokenError('no email claim');
    }
    const firebase = payload.firebase as { sign_in_provider?: unknown } | undefined;
    if (firebase?.sign_in_provider !== 'password') {
      throw new FirebaseTokenError('sign-in method is not e-mail and password');
    }
    return { uid: payload.sub, email: payload.email };
  };
}
export type FirebaseTokenVerifier = ReturnType<typeof createFirebaseTokenVerifier>;

/** The key set could not be fetched or read (as opposed to a token that does not verify). */
function keysUnavailable(error: unknown): boolean {
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return true;
  if (error instanceof errors.JOSEError) {
    return /^(Expected 200 OK|Failed to parse) .*JSON Web Key Set/.test(error.message);
  }
  // fetch() itself failed (refused connection, DNS): not a JOSE error at all.
  return true;
}

/** A short reason without the token (jose's messages never include it). */
function describeJoseError(error: unknown): string {
  if (error instanceof errors.JOSEError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : 'unknown verification error';
}
