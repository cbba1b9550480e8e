import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({}, '/srv/comando');
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe('/srv/comando/data');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.demo).toBe(true);
  });

  it('names every bad variable in one message', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', COMANDO_DEMO: 'quizás', LOG_LEVEL: 'loud' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    for (const name of ['PORT', 'DATABASE_URL', 'COMANDO_DEMO', 'LOG_LEVEL']) expect(message).toContain(name);
    expect((error as ConfigError).problems).toHaveLength(4);
  });

  it('reads the off-machine copy (REPLICA_URL): a bucket with its keys or a folder, SQLite only', () => {
    expect(loadConfig({}).replica).toBeUndefined();
    expect(loadConfig({ REPLICA_URL: 'file:///mnt/otro-disco/comando' }).replica).toEqual({
      kind: 'file',
      path: '/mnt/otro-disco/comando',
      syncSeconds: 1,
    });
    expect(
      loadConfig({
        REPLICA_URL: 's3://copias/zulia/comando',
        REPLICA_S3_ENDPOINT: 'https://s3.example.org/',
        REPLICA_S3_ACCESS_KEY_ID: 'AKIA',
        REPLICA_S3_SECRET_ACCESS_KEY: 'secreto',
        REPLICA_SYNC_SECONDS: '5',
      }).replica,
    ).toEqual({
      kind: 's3',
      bucket: 'copias',
      path: 'zulia/comando',
      endpoint: 'https://s3.example.org',
      region: 'us-east-1',
      accessKeyId: 'AKIA',
      secretAccessKey: 'secreto',
      forcePathStyle: true,
      syncSeconds: 5,
    });
    expect(() => loadConfig({ REPLICA_URL: 'ftp://copias' })).toThrow(
      /REPLICA_URL: debe ser s3:\/\/<bucket>\/<carpeta> .* o file:\/\/\/<carpeta>/,
    );
    expect(() => loadConfig({ REPLICA_URL: 's3://copias' })).toThrow(
      /REPLICA_S3_ACCESS_KEY_ID: es obligatoria con REPLICA_URL=s3:\/\/…/,
    );
    expect(() =>
      loadConfig({ REPLICA_URL: 'file:///mnt/copia', DATABASE_URL: 'postgres://comando@localhost/comando' }),
    ).toThrow(/REPLICA_URL: solo se usa con SQLite/);
    expect(() => loadConfig({ REPLICA_URL: 'file:///mnt/copia', REPLICA_SYNC_SECONDS: '0' })).toThrow(
      /REPLICA_SYNC_SECONDS: debe ser al menos 1 segundo/,
    );
  });

  it('requires PUBLIC_ORIGIN in production, where the API reference is for admins unless opened', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /PUBLIC_ORIGIN: es obligatoria con NODE_ENV=production/,
    );
    const production = loadConfig({ NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://comando.example.org/' });
    expect(production.publicOrigin).toBe('https://comando.example.org');
    expect(production.apiDocs).toBe('admins');
    expect(
      loadConfig({ NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://comando.example.org', API_DOCS: 'public' }).apiDocs,
    ).toBe('public');
    expect(loadConfig({}).apiDocs).toBe('public');
    expect(loadConfig({ API_DOCS: 'admins' }).apiDocs).toBe('admins');
    expect(() => loadConfig({ API_DOCS: 'todos' })).toThrow(/API_DOCS: debe ser public o admins/);
  });

  it('reads TRUST_PROXY as nobody, a number of proxy hops or proxy addresses; never everyone in production', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      '::1',
      'loopback',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    for (const bad of ['proxy', '10.0.0.300', '10.0.0.0/33', '10.0.0.5,', '500']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: debe ser 0, el número de proxies/);
    }
    const production = { NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://comando.example.org' };
    expect(() => loadConfig({ ...production, TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: no puede confiar en cualquiera/,
    );
    expect(loadConfig({ ...production, TRUST_PROXY: '1' }).trustProxy).toBe(1);
  });

  it('reads the request timeouts and how long to wait for PostgreSQL at start, in seconds', () => {
    expect(loadConfig({}).timeouts).toEqual({ bodyMs: 30_000, requestMs: 600_000 });
    expect(loadConfig({}).databaseConnectRetryMs).toBe(60_000);
    const config = loadConfig({
      BODY_TIMEOUT_SECONDS: '10',
      REQUEST_TIMEOUT_SECONDS: '900',
      DATABASE_CONNECT_TIMEOUT_SECONDS: '0',
    });
    expect(config.timeouts).toEqual({ bodyMs: 10_000, requestMs: 900_000 });
    expect(config.databaseConnectRetryMs).toBe(0);
    expect(() => loadConfig({ BODY_TIMEOUT_SECONDS: '0' })).toThrow(/BODY_TIMEOUT_SECONDS/);
  });

  it('reads METRICS_TOKEN (off without it), never short and never echoed back', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    const token = 'a'.repeat(64);
    expect(loadConfig({ METRICS_TOKEN: ` ${token} ` }).metricsToken).toBe(token);
    let error: unknown;
    try {
      loadConfig({ METRICS_TOKEN: 'corto-y-secreto' });
    } catch (e) {
      error = e;
    }
    expect((error as ConfigError).problems).toEqual([
      'METRICS_TOKEN: debe tener al menos 32 caracteres (por ejemplo, la salida de openssl rand -hex 32)',
    ]);
    expect(() => loadConfig({ METRICS_TOKEN: `${token} ${token}` })).toThrow(
      /METRICS_TOKEN: debe ser una sola palabra/,
    );
  });

  it('turns SMS votes on with all four SMS settings, off with none, and refuses a part of them by name', () => {
    expect(loadConfig({}).sms).toBeUndefined();
    const all = {
      SMS_GATEWAY_URL: 'https://api.sms-gate.app/3rdparty/v1/',
      SMS_GATEWAY_LOGIN: 'pasarela',
      SMS_GATEWAY_PASSWORD: 'clave-de-la-pasarela',
      SMS_WEBHOOK_SIGNING_KEY: 'clave-de-firma',
    };
    expect(loadConfig(all).sms).toEqual({
      url: 'https://api.sms-gate.app/3rdparty/v1',
      login: 'pasarela',
      password: 'clave-de-la-pasarela',
      signingKey: 'clave-de-firma',
      phone: null,
    });
    // The gateway phone's own number, in one form, for Mensajes; only with SMS on, and a real number.
    expect(loadConfig({ ...all, SMS_GATEWAY_PHONE: '0414-555 66 77' }).sms?.phone).toBe('+584145556677');
    expect(() => loadConfig({ ...all, SMS_GATEWAY_PHONE: 'el de siempre' })).toThrow(
      /SMS_GATEWAY_PHONE: debe ser un número/,
    );
    expect(() => loadConfig({ SMS_GATEWAY_PHONE: '04145556677' })).toThrow(/SMS_GATEWAY_PHONE: solo sirve con/);
    let error: unknown;
    try {
      loadConfig({ SMS_GATEWAY_URL: all.SMS_GATEWAY_URL, SMS_WEBHOOK_SIGNING_KEY: 'clave-secreta-de-firma' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^SMS_GATEWAY_LOGIN: falta: los votos por SMS necesitan las cuatro/);
    expect(problems[1]).toMatch(/^SMS_GATEWAY_PASSWORD: /);
    expect((error as ConfigError).message).not.toContain('clave-secreta-de-firma');
  });

  it('turns COMANDO_DEMO=0 off and accepts a PostgreSQL URL', () => {
    const config = loadConfig({ COMANDO_DEMO: '0', DATABASE_URL: 'postgres://u:p@localhost:5432/comando' });
    expect(config.demo).toBe(false);
    expect(config.databaseUrl).toBe('postgres://u:p@localhost:5432/comando');
  });

  it('starts the clock at COMANDO_NOW and lets it run', () => {
    const config = loadConfig({ COMANDO_NOW: '2026-11-23T03:30:00Z' });
    const t = config.now().getTime();
    expect(Math.abs(t - Date.parse('2026-11-23T03:30:00Z'))).toBeLessThan(5_000);
  });

  it('reads notas from WordPress only with its URL', () => {
    expect(() => loadConfig({ NOTAS_SOURCE: 'wordpress' })).toThrow(/WORDPRESS_URL: es obligatoria/);
    expect(loadConfig({ NOTAS_SOURCE: 'wordpress', WORDPRESS_URL: 'https://blog.example.org/' }).notas).toEqual({
      source: 'wordpress',
      url: 'https://blog.example.org',
      pageSize: 50,
      timeoutMs: 30_000,
      concurrency: 3,
      imageOrigins: [],
    });
    expect(loadConfig({}).notas).toEqual({ source: 'local' });
  });

  it('reads the WordPress page size, time limit, parallel requests and image origins, and names bad ones', () => {
    const wordpress = { NOTAS_SOURCE: 'wordpress', WORDPRESS_URL: 'https://blog.example.org' };
    expect(
      loadConfig({
        ...wordpress,
        WORDPRESS_PAGE_SIZE: '20',
        WORDPRESS_TIMEOUT_MS: '90000',
        WORDPRESS_CONCURRENCY: '5',
        WORDPRESS_IMAGE_ORIGINS: 'https://cdn.example.org/ruta/, http://www.blog.example.org',
      }).notas,
    ).toMatchObject({
      pageSize: 20,
      timeoutMs: 90_000,
      concurrency: 5,
      imageOrigins: ['https://cdn.example.org', 'http://www.blog.example.org'],
    });
    expect(() =>
      loadConfig({
        ...wordpress,
        WORDPRESS_PAGE_SIZE: '500',
        WORDPRESS_TIMEOUT_MS: '10',
        WORDPRESS_CONCURRENCY: '0',
        WORDPRESS_IMAGE_ORIGINS: 'cdn.example.org',
      }),
    ).toThrow(
      new RegExp(
        [
          'WORDPRESS_PAGE_SIZE: debe ser un número entero de 1 a 100 \\(WordPress no da más de 100',
          'WORDPRESS_TIMEOUT_MS: debe ser al menos 1000',
          'WORDPRESS_CONCURRENCY: debe ser un número entero de 1 a 10',
          'WORDPRESS_IMAGE_ORIGINS: «cdn.example.org» no es un origen web',
        ].join('[^]*'),
      ),
    );
  });

  it('reads the Airtable settings; write-back needs the token, the base and the public origin', () => {
    expect(loadConfig({}).airtable).toEqual({
      token: undefined,
      baseId: undefined,
      recordsTable: 'Zulia',
      agendaTable: 'agenda',
      apiUrl: 'https://api.airtable.com',
      writeback: false,
    });
    const config = loadConfig({
      AIRTABLE_TOKEN: 'patABC.123',
      AIRTABLE_BASE_ID: 'appABCDEFGHIJKLMN',
      AIRTABLE_RECORDS_TABLE: 'Registros',
      AIRTABLE_API_URL: 'http://127.0.0.1:4314/',
      AIRTABLE_WRITEBACK: '1',
      PUBLIC_ORIGIN: 'https://comando.example.org',
    });
    expect(config.airtable).toMatchObject({
      token: 'patABC.123',
      baseId: 'appABCDEFGHIJKLMN',
      recordsTable: 'Registros',
      agendaTable: 'agenda',
      apiUrl: 'http://127.0.0.1:4314',
      writeback: true,
    });
    let error: unknown;
    try {
      loadConfig({ AIRTABLE_WRITEBACK: '1', AIRTABLE_BASE_ID: 'base-x' });
    } catch (e) {
      error = e;
    }
    const message = (error as ConfigError).message;
    expect(message).toMatch(/AIRTABLE_BASE_ID: debe ser el id de la base/);
    expect(message).toMatch(/AIRTABLE_TOKEN: es obligatoria con AIRTABLE_WRITEBACK=1/);
    expect(message).toMatch(/PUBLIC_ORIGIN: es obligatoria con AIRTABLE_WRITEBACK=1/);
  });

  it('keeps idempotency keys 7 days unless told otherwise, a whole number of days from 1 to 365', () => {
    expect(loadConfig({}).idempotencyKeyDays).toBe(7);
    expect(loadConfig({ IDEMPOTENCY_KEY_DAYS: '' }).idempotencyKeyDays).toBe(7);
    expect(loadConfig({ IDEMPOTENCY_KEY_DAYS: '30' }).idempotencyKeyDays).toBe(30);
    for (const bad of ['0', '2.5', 'siete', '366']) {
      expect(() => loadConfig({ IDEMPOTENCY_KEY_DAYS: bad })).toThrow(/IDEMPOTENCY_KEY_DAYS: debe/);
    }
  });

  it('keeps unfinished resumable uploads 24 hours unless told otherwise, a whole number of hours from 1 to 720', () => {
    expect(loadConfig({}).resumableUploadHours).toBe(24);
    expect(loadConfig({ RESUMABLE_UPLOAD_HOURS: '48' }).resumableUploadHours).toBe(48);
    for (const bad of ['0', '1.5', 'un día', '721']) {
      expect(() => loadConfig({ RESUMABLE_UPLOAD_HOURS: bad })).toThrow(/RESUMABLE_UPLOAD_HOURS: debe/);
    }
  });

  it('gives each person 200 MB of unfinished uploads unless told otherwise, a whole number of megabytes', () => {
    expect(loadConfig({}).resumableUploadBudgetBytes).toBe(200 * 1024 * 1024);
    expect(loadConfig({ RESUMABLE_UPLOAD_BUDGET_MB: '50' }).resumableUploadBudgetBytes).toBe(50 * 1024 * 1024);
    for (const bad of ['0', '2.5', 'mucho', '100001']) {
      expect(() => loadConfig({ RESUMABLE_UPLOAD_BUDGET_MB: bad })).toThrow(/RESUMABLE_UPLOAD_BUDGET_MB: debe/);
    }
  });

  it('keeps 1 GB free in the data folder unless told otherwise (0: no floor), a whole number of megabytes', () => {
    expect(loadConfig({}).dataDirMinFreeBytes).toBe(1024 * 1024 * 1024);
    expect(loadConfig({ DATA_DIR_MIN_FREE_MB: '0' }).dataDirMinFreeBytes).toBe(0);
    expect(loadConfig({ DATA_DIR_MIN_FREE_MB: '500' }).dataDirMinFreeBytes).toBe(500 * 1024 * 1024);
    for (const bad of ['-1', '1.5', 'un giga']) {
      expect(() => loadConfig({ DATA_DIR_MIN_FREE_MB: bad })).toThrow(/DATA_DIR_MIN_FREE_MB: debe/);
    }
  });

  it('refuses a fixed clock in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', COMANDO_NOW: '2026-11-23T03:30:00Z' })).toThrow(/COMANDO_NOW/);
  });
});
