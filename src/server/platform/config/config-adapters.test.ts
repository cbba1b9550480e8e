import { describe, expect, it } from 'vitest';
import { ConfigError, GOOGLE_FIREBASE_JWKS_URL, loadConfig } from './config';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('photo storage and sign-in provider settings', () => {
  it('keeps photos on the local disk and passwords at home by default', () => {
    const config = loadConfig({});
    expect(config.storage).toEqual({ driver: 'local' });
    expect(config.auth).toEqual({ provider: 'local' });
  });

  it('names every S3 variable that STORAGE=s3 needs', () => {
    const problems = problemsOf({ STORAGE: 's3', S3_ENDPOINT: 'no es url', S3_PREFIX: '/fotos' });
    expect(problems.join('\n')).toMatch(/S3_BUCKET: es obligatoria con STORAGE=s3/);
    for (const name of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_ENDPOINT', 'S3_PREFIX']) {
      expect(problems.some((p) => p.startsWith(`${name}:`))).toBe(true);
    }
  });

  it('reads an S3-compatible bucket', () => {
    const config = loadConfig({
      STORAGE: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      S3_BUCKET: 'fotos',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secreto',
      S3_FORCE_PATH_STYLE: '0',
      S3_PREFIX: 'comando/',
    });
    expect(config.storage).toEqual({
      driver: 's3',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      bucket: 'fotos',
      accessKeyId: 'id',
      secretAccessKey: 'secreto',
      forcePathStyle: false,
      prefix: 'comando/',
      timeoutMs: 30_000,
    });
  });

  it('names every Dropbox variable that STORAGE=dropbox needs, and reads them', () => {
    const problems = problemsOf({ STORAGE: 'dropbox', DROPBOX_APP_KEY: 'k' });
    expect(problems).toEqual([
      'DROPBOX_APP_SECRET: es obligatoria con STORAGE=dropbox',
      'DROPBOX_REFRESH_TOKEN: es obligatoria con STORAGE=dropbox',
    ]);
    const config = loadConfig({
      STORAGE: 'dropbox',
      DROPBOX_APP_KEY: 'k',
      DROPBOX_APP_SECRET: 's',
      DROPBOX_REFRESH_TOKEN: 'r',
    });
    expect(config.storage).toEqual({
      driver: 'dropbox',
      appKey: 'k',
      appSecret: 's',
      refreshToken: 'r',
      apiUrl: 'https://api.dropboxapi.com',
      contentUrl: 'https://content.dropboxapi.com',
    });
  });

  it('never repeats a secret in the message', () => {
    const message = problemsOf({
      DATABASE_URL: 'mysql://usuario:clave-secreta@db',
      AIRTABLE_API_URL: 'patSECRETO2',
    }).join('\n');
    expect(message).toContain('DATABASE_URL');
    expect(message).not.toContain('clave-secreta');
    expect(message).toContain('valor recibido: "patSECRETO2"');
  });

  it('needs the project id and the web API key for Firebase, and no emulator in production', () => {
    expect(problemsOf({ AUTH_PROVIDER: 'firebase', FIREBASE_PROJECT_ID: 'Mal Id!' })).toEqual([
      expect.stringMatching(/^FIREBASE_PROJECT_ID: debe ser el id del proyecto/),
      'FIREBASE_API_KEY: es obligatoria con AUTH_PROVIDER=firebase',
    ]);
    expect(
      problemsOf({
        NODE_ENV: 'production',
        PUBLIC_ORIGIN: 'https://comando.example.org',
        AUTH_PROVIDER: 'firebase',
        FIREBASE_PROJECT_ID: 'comando-zulia',
        FIREBASE_API_KEY: 'AIza',
        FIREBASE_AUTH_EMULATOR_URL: 'http://127.0.0.1:9099',
      }),
    ).toEqual([
      'FIREBASE_AUTH_EMULATOR_URL: no se permite con NODE_ENV=production (valor recibido: "http://127.0.0.1:9099")',
    ]);
    const config = loadConfig({
      AUTH_PROVIDER: 'firebase',
      FIREBASE_PROJECT_ID: 'comando-zulia',
      FIREBASE_API_KEY: 'AIza',
      FIREBASE_AUTH_EMULATOR_URL: 'http://127.0.0.1:9099/',
    });
    expect(config.auth).toEqual({
      provider: 'firebase',
      projectId: 'comando-zulia',
      apiKey: 'AIza',
      emulatorUrl: 'http://127.0.0.1:9099',
      emulatorTokens: false,
      jwksUrl: 'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com',
    });
  });

  const firebase = { AUTH_PROVIDER: 'firebase', FIREBASE_PROJECT_ID: 'comando-zulia', FIREBASE_API_KEY: 'AIza' };

  it('takes the official emulator as firebase-admin does (host:port), never in production', () => {
    expect(loadConfig({ ...firebase, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }).auth).toMatchObject({
      emulatorUrl: 'http://127.0.0.1:9099',
      emulatorTokens: true,
    });
    expect(problemsOf({ ...firebase, FIREBASE_AUTH_EMULATOR_HOST: 'http://127.0.0.1:9099' })).toEqual([
      expect.stringMatching(/^FIREBASE_AUTH_EMULATOR_HOST: debe ser host:puerto/),
    ]);
    expect(
      problemsOf({
        ...firebase,
        NODE_ENV: 'production',
        PUBLIC_ORIGIN: 'https://comando.example.org',
        FIREBASE_AUTH_EMULATOR_HOST: 'localhost:9099',
      }),
    ).toEqual([
      'FIREBASE_AUTH_EMULATOR_HOST: no se permite con NODE_ENV=production (valor recibido: "localhost:9099")',
    ]);
    expect(
      problemsOf({
        ...firebase,
        FIREBASE_AUTH_EMULATOR_HOST: 'localhost:9099',
        FIREBASE_AUTH_EMULATOR_URL: 'http://localhost:9099',
      }),
    ).toEqual([expect.stringMatching(/^FIREBASE_AUTH_EMULATOR_URL: usa solo una/)]);
    expect(
      loadConfig({ ...firebase, NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://comando.example.org' }).auth,
    ).toMatchObject({ emulatorTokens: false });
  });

  it('refuses another signing key set than Google’s in production, with a clear message', () => {
    const jwks = 'https://claves.example.org/jwks.json';
    expect(
      problemsOf({
        ...firebase,
        NODE_ENV: 'production',
        PUBLIC_ORIGIN: 'https://comando.example.org',
        FIREBASE_JWKS_URL: jwks,
      }),
    ).toEqual([
      `FIREBASE_JWKS_URL: es solo para pruebas y no se permite con NODE_ENV=production: en producción los tokens se comprueban siempre con las claves de Google (valor recibido: "${jwks}")`,
    ]);
    expect(loadConfig({ ...firebase, FIREBASE_JWKS_URL: jwks }).auth).toMatchObject({ jwksUrl: jwks });
    expect(
      loadConfig({
        ...firebase,
        NODE_ENV: 'production',
        PUBLIC_ORIGIN: 'https://comando.example.org',
        FIREBASE_JWKS_URL: GOOGLE_FIREBASE_JWKS_URL,
      }).auth,
    ).toMatchObject({ jwksUrl: GOOGLE_FIREBASE_JWKS_URL });
  });
});
