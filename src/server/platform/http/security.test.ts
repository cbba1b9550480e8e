import { afterEach, describe, expect, it } from 'vitest';
import type { AuthProviderConfig } from '#server/platform/config/config';
import { createTestApp, type TestApp } from '#server/testing/test-app';

let t: TestApp;
afterEach(async () => t?.close());

const firebase = (emulatorUrl: string | undefined): AuthProviderConfig => ({
  provider: 'firebase',
  projectId: 'comando-pruebas',
  apiKey: 'clave-web',
  emulatorUrl,
  emulatorTokens: false,
  jwksUrl: 'http://127.0.0.1:1/jwks',
});

async function connectSrc(auth: AuthProviderConfig): Promise<string> {
  t = await createTestApp({ auth });
  const csp = String((await t.request({ url: '/api/health' })).headers['content-security-policy']);
  return /connect-src ([^;]*)/.exec(csp)?.[1] ?? '';
}

describe('Content-Security-Policy connect-src', () => {
  it("is only 'self' when passwords are checked here", async () => {
    expect(await connectSrc({ provider: 'local' })).toBe("'self'");
  });

  it('adds Google’s sign-in and token services for Firebase Auth', async () => {
    expect(await connectSrc(firebase(undefined))).toBe(
      "'self' https://identitytoolkit.googleapis.com https://securetoken.googleapis.com",
    );
  });

  it('adds only the emulator’s origin when one is configured', async () => {
    expect(await connectSrc(firebase('http://127.0.0.1:9099/some/path'))).toBe("'self' http://127.0.0.1:9099");
  });
});
