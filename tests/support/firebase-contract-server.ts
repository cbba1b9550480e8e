// A local server that speaks the Identity Toolkit contract the Firebase Auth JS SDK uses once it is
// pointed at an emulator (connectAuthEmulator): requests arrive as
// `<url>/identitytoolkit.googleapis.com/v1/accounts:<method>?key=<apiKey>` and
// `<url>/securetoken.googleapis.com/v1/token?key=<apiKey>`, answered with Google's JSON shapes and error
// codes. Unlike the official emulator (whose tokens are unsigned), it signs ID tokens RS256 with a key
// of its own and publishes the public half where Google publishes its keys, so the app's server verifies
// them for real. Used by the server's tests and by the end-to-end suite.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, jwtVerify, SignJWT } from 'jose';

export const JWKS_PATH = '/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';
const TOOLKIT = '/identitytoolkit.googleapis.com';
const SECURETOKEN = '/securetoken.googleapis.com';
/** Failed passwords of one account before Firebase answers TOO_MANY_ATTEMPTS_TRY_LATER... */
const MAX_FAILURES = 5;
/** ...for this long. */
const BLOCK_MS = 60_000;

/** End-to-end: an account Firebase knows and the app does not. */
export const FIREBASE_ONLY_EMAIL = 'solo.firebase@e2e.example';
/** End-to-end: an account Firebase has disabled. */
export const FIREBASE_DISABLED_EMAIL = 'desactivada.firebase@e2e.example';

export interface FirebaseAccount {
  email: string;
  password: string;
  /** Disabled in Firebase (not in the app): sign-in answers USER_DISABLED. */
  disabled?: boolean;
}

export interface FirebaseContractOptions {
  projectId: string;
  apiKey: string;
  accounts: FirebaseAccount[];
  port?: number;
  /** Print each request on stderr (to find out what the SDK asks for). */
  log?: boolean;
}

export interface FirebaseContractServer {
  url: string;
  jwksUrl: string;
  projectId: string;
  /** Every request as `METHOD /path` (no query), in order. */
  requests: string[];
  /** How many times the signing keys were fetched. */
  readonly jwksFetches: number;
  /** The key id of the published signing key. */
  kid: string;
  /**
   * An ID token as Firebase issues it for `email`, signed with the published key; `claims` override or
   * (when undefined) remove claims. Tests use it to make tokens the SDK would never send.
   */
  idTokenFor(email: string, claims?: Record<string, unknown>): Promise<string>;
  /**
   * An ID token shaped like the official Auth emulator's (firebase-tools): the same claims, unsigned
   * (`{"alg":"none","typ":"JWT"}` and an empty signature).
   */
  emulatorTokenFor(email: string, claims?: Record<string, unknown>): string;
  close(): Promise<void>;
}

/** Firebase's uid shape: 28 characters, stable per e-mail. */
const uidOf = (email: string) => crypto.createHash('sha256').update(email).digest('base64url').slice(0, 28);

export async function startFirebaseContractServer(options: FirebaseContractOptions): Promise<FirebaseContractServer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048 });
  const kid = crypto.randomBytes(20).toString('hex');
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const accounts = new Map(options.accounts.map((a) => [a.email.toLowerCase(), a]));
  const refreshTokens = new Map<string, string>();
  const failures = new Map<string, { count: number; blockedUntil: number }>();
  const createdAt = Date.now();
  const state = { requests: [] as string[], jwksFetches: 0 };

  function claimsOf(email: string, claims: Record<string, unknown>): JWTPayload {
    const now = Math.floor(Date.now() / 1000);
    const payload: JWTPayload = {
      iss: `https://securetoken.google.com/${options.projectId}`,
      aud: options.projectId,
      auth_time: now,
      user_id: uidOf(email),
      sub: uidOf(email),
      iat: now,
      exp: now + 3600,
      email,
      email_verified: false,
      firebase: { identities: { email: [email] }, sign_in_provider: 'password' },
    };
    for (const [name, value] of Object.entries(claims)) {
      if (value === undefined) delete payload[name];
      else payload[name] = value;
    }
    return payload;
  }

  async function idTokenFor(email: string, claims: Record<string, unknown> = {}): Promise<string> {
    return new SignJWT(claimsOf(email, claims)).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(privateKey);
  }

  /** What the official emulator issues: the same claims, `alg: none` and an empty signature. */
  function emulatorTokenFor(email: string, claims: Record<string, unknown> = {}): string {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    return `${part({ alg: 'none', typ: 'JWT' })}.${part(claimsOf(email, claims))}.`;
  }

  async function tokensFor(email: string) {
    const refreshToken = crypto.randomBytes(32).toString('base64url');
    refreshTokens.set(refreshToken, email);
    return { idToken: await idTokenFor(email), refreshToken };
  }

  async function emailOfIdToken(idToken: unknown): Promise<string | undefined> {
    if (typeof idToken !== 'string') return undefined;
    try {
      const { payload } = await jwtVerify(idToken, publicKey, {
        issuer: `https://securetoken.google.com/${options.projectId}`,
      });
      return typeof payload.email === 'string' ? payload.email : undefined;
    } catch {
      return undefined;
    }
  }

  const userInfo = (account: FirebaseAccount) => ({
    localId: uidOf(account.email),
    email: account.email,
    passwordHash: 'UkVEQUNURUQ=',
    emailVerified: false,
    passwordUpdatedAt: createdAt,
    providerUserInfo: [
      { providerId: 'password', email: account.email, federatedId: account.email, rawId: account.email },
    ],
    validSince: String(Math.floor(createdAt / 1000)),
    disabled: account.disabled ?? false,
    lastLoginAt: String(Date.now()),
    createdAt: String(createdAt),
    lastRefreshAt: new Date().toISOString(),
  });

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    state.requests.push(`${req.method} ${url.pathname}`);
    if (options.log) process.stderr.write(`firebase-contract: ${req.method} ${url.pathname}\n`);
    // The browser calls from the app's origin: answer CORS the way Google does (any origin).
    const cors = {
      'access-control-allow-origin': req.headers.origin ?? '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? 'content-type',
      'access-control-max-age': '600',
      vary: 'origin',
    };
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...cors, ...headers });
      res.end(JSON.stringify(body));
    };
    const fail = (status: number, message: string) =>
      send(status, { error: { code: status, message, errors: [{ message, domain: 'global', reason: 'invalid' }] } });

    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors);
      return res.end();
    }
    if (url.pathname === '/health') return send(200, { ok: true });
    if (req.method === 'GET' && url.pathname === JWKS_PATH) {
      state.jwksFetches++;
      return send(200, { keys: [publicJwk] }, { 'cache-control': 'public, max-age=21600, must-revalidate' });
    }
    // What the official emulator answers about itself; the SDK may ask.
    if (req.method === 'GET' && url.pathname === `/emulator/v1/projects/${options.projectId}/config`) {
      return send(200, {
        signIn: { allowDuplicateEmails: false },
        emailPrivacyConfig: { enableImprovedEmailPrivacy: true },
      });
    }

    const isToolkit = url.pathname.startsWith(`${TOOLKIT}/`);
    const isSecureToken = url.pathname.startsWith(`${SECURETOKEN}/`);
    if (!isToolkit && !isSecureToken) return fail(404, 'NOT_FOUND');
    if (url.searchParams.get('key') !== options.apiKey) {
      return send(400, {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          errors: [
            { message: 'API key not valid. Please pass a valid API key.', domain: 'global', reason: 'badRequest' },
          ],
        },
      });
    }

    const raw = await new Promise<string>((resolve) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        text += chunk;
      });
      req.on('end', () => resolve(text));
    });
    let body: Record<string, unknown> = {};
    try {
      body = String(req.headers['content-type']).includes('x-www-form-urlencoded')
        ? Object.fromEntries(new URLSearchParams(raw))
        : raw
          ? (JSON.parse(raw) as Record<string, unknown>)
          : {};
    } catch {
      return fail(400, 'INVALID_JSON');
    }

    const method = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
    if (req.method === 'GET' && url.pathname === `${TOOLKIT}/v2/recaptchaConfig`) {
      return send(200, { recaptchaEnforcementState: [] });
    }
    if (req.method === 'POST' && method === 'accounts:signInWithPassword') {
      const email = String(body.email ?? '').toLowerCase();
      const account = accounts.get(email);
      const now = Date.now();
      const record = failures.get(email) ?? { count: 0, blockedUntil: 0 };
      if (record.blockedUntil > now) {
        return fail(
          400,
          'TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled due to many failed login attempts.',
        );
      }
      if (!account || account.password !== body.password) {
        record.count++;
        if (record.count >= MAX_FAILURES) Object.assign(record, { count: 0, blockedUntil: now + BLOCK_MS });
        failures.set(email, record);
        // Email enumeration protection (Firebase's default since 2023): one answer for both cases.
        return fail(400, 'INVALID_LOGIN_CREDENTIALS');
      }
      failures.delete(email);
      if (account.disabled) return fail(400, 'USER_DISABLED');
      const { idToken, refreshToken } = await tokensFor(account.email);
      return send(200, {
        kind: 'identitytoolkit#VerifyPasswordResponse',
        localId: uidOf(account.email),
        email: account.email,
        displayName: '',
        idToken,
        registered: true,
        refreshToken,
        expiresIn: '3600',
      });
    }
    if (req.method === 'POST' && method === 'accounts:lookup') {
      const account = accounts.get((await emailOfIdToken(body.idToken))?.toLowerCase() ?? '');
      if (!account) return fail(400, 'INVALID_ID_TOKEN');
      return send(200, { kind: 'identitytoolkit#GetAccountInfoResponse', users: [userInfo(account)] });
    }
    if (req.method === 'POST' && isSecureToken && method === 'token') {
      if (body.grant_type !== 'refresh_token') return fail(400, 'INVALID_GRANT_TYPE');
      const email = refreshTokens.get(String(body.refresh_token ?? ''));
      const account = email ? accounts.get(email.toLowerCase()) : undefined;
      if (!account) return fail(400, 'INVALID_REFRESH_TOKEN');
      if (account.disabled) return fail(400, 'USER_DISABLED');
      const idToken = await idTokenFor(account.email);
      return send(200, {
        access_token: idToken,
        expires_in: '3600',
        token_type: 'Bearer',
        refresh_token: body.refresh_token,
        id_token: idToken,
        user_id: uidOf(account.email),
        project_id: options.projectId,
      });
    }
    return fail(404, 'NOT_FOUND');
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    jwksUrl: `${url}${JWKS_PATH}`,
    projectId: options.projectId,
    requests: state.requests,
    get jwksFetches() {
      return state.jwksFetches;
    },
    kid,
    idTokenFor,
    emulatorTokenFor,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// `tsx tests/support/firebase-contract-server.ts <port>`: the end-to-end suite's Firebase, knowing the
// seeded accounts with their passwords, plus one only Firebase knows and one Firebase has disabled.
if (process.argv[1]?.endsWith('firebase-contract-server.ts')) {
  const { FIREBASE_CONTRACT } = await import('../e2e/support/servers');
  const { E2E_ACCOUNTS, E2E_PASSWORD } = await import('../e2e/support/seed-auth');
  const { RECORDS_ACCOUNTS, RECORDS_PASSWORD } = await import('../e2e/support/seed-records');
  const server = await startFirebaseContractServer({
    port: Number(process.argv[2] ?? FIREBASE_CONTRACT.port),
    projectId: FIREBASE_CONTRACT.projectId,
    apiKey: FIREBASE_CONTRACT.apiKey,
    log: process.env.FIREBASE_CONTRACT_LOG === '1',
    accounts: [
      ...Object.values(E2E_ACCOUNTS).map((a) => ({ email: a.email, password: a.password })),
      ...Object.values(RECORDS_ACCOUNTS).map((a) => ({ email: a.email, password: RECORDS_PASSWORD })),
      { email: FIREBASE_ONLY_EMAIL, password: E2E_PASSWORD },
      { email: FIREBASE_DISABLED_EMAIL, password: E2E_PASSWORD, disabled: true },
    ],
  });
  console.log(`Firebase Auth de prueba en ${server.url}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
