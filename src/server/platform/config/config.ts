import { createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { RequestTimeouts } from '#server/platform/http/timeouts';
import { normalisePhone } from '#shared/platform/phone';

const boolFlag = (fallback: boolean) =>
  z
    .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(v)));

const optionalText = () =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined);

/**
 * A whole number from the environment: `fallback` when unset, else within `min` and `max`, each refusal
 * in Spanish with the unit (días, horas, megabytes) and the fallback as the example.
 */
const wholeNumber = (fallback: number, unit: string, min: [number, string], max: [number, string]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? Number(v) : fallback))
    .pipe(
      z
        .number({ message: `debe ser un número de ${unit}, por ejemplo ${fallback}` })
        .int(`debe ser un número entero de ${unit}`)
        .min(...min)
        .max(...max),
    );

const optionalUrl = (message: string) =>
  z
    .url({ message })
    .optional()
    .or(z.literal('').transform(() => undefined));

/** Where Google publishes the keys that sign Firebase ID tokens. */
export const GOOGLE_FIREBASE_JWKS_URL =
  'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

/** proxy-addr's names for the reserved ranges (loopback: nginx on the same machine). */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrNetwork(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const version = net.isIP(address);
  if (!version || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (version === 4 ? 32 : 128);
}

/**
 * Which peers may tell us the client's address (X-Forwarded-For): none, a number of proxy hops in
 * front, or the proxies' addresses and networks. "Everyone" (true) lets any client write its own
 * address: refused in production (superRefine below).
 */
const trustProxySetting = z
  .string()
  .trim()
  .optional()
  .transform((v, ctx): TrustProxy => {
    const value = (v ?? '').toLowerCase();
    if (['', '0', 'false', 'no', 'off'].includes(value)) return false;
    if (['true', 'yes', 'on'].includes(value)) return true;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 10) return hops;
    }
    const entries = value.split(',').map((e) => e.trim());
    if (entries.every((e) => e && isAddressOrNetwork(e))) return entries;
    ctx.addIssue({
      code: 'custom',
      message:
        'debe ser 0, el número de proxies delante de la app (por ejemplo 1) o sus direcciones o redes separadas por comas (por ejemplo 10.0.0.5,10.1.0.0/16 o loopback)',
    });
    return z.NEVER;
  });

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'debe empezar por postgres:// o postgresql://')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    COMANDO_DEMO: boolFlag(true),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    PUBLIC_ORIGIN: z
      .url({ message: 'debe ser una URL completa, por ejemplo https://comando.example.org' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
    TRUST_PROXY: trustProxySetting,
    BODY_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
    API_DOCS: z
      .enum(['public', 'admins', ''], { message: 'debe ser public o admins' })
      .optional()
      .transform((v) => v || undefined),
    CAMPAIGN_NAME: z.string().min(1).default('Comando Zulia'),
    NOTAS_SOURCE: z.enum(['local', 'wordpress']).default('local'),
    WORDPRESS_URL: z
      .url({ message: 'debe ser la URL del sitio WordPress, por ejemplo https://blog.example.org' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
    WORDPRESS_PAGE_SIZE: z.coerce
      .number({ message: 'debe ser un número entero de 1 a 100' })
      .int('debe ser un número entero de 1 a 100')
      .min(1, 'debe ser un número entero de 1 a 100')
      .max(100, 'debe ser un número entero de 1 a 100 (WordPress no da más de 100 entradas por página)')
      .default(50),
    WORDPRESS_TIMEOUT_MS: z.coerce
      .number({ message: 'debe ser un número de milisegundos' })
      .int('debe ser un número entero de milisegundos')
      .min(1_000, 'debe ser al menos 1000 (un segundo)')
      .default(30_000),
    WORDPRESS_CONCURRENCY: z.coerce
      .number({ message: 'debe ser un número entero de 1 a 10' })
      .int('debe ser un número entero de 1 a 10')
      .min(1, 'debe ser un número entero de 1 a 10')
      .max(10, 'debe ser un número entero de 1 a 10')
      .default(3),
    WORDPRESS_IMAGE_ORIGINS: z
      .string()
      .optional()
      .transform((v, ctx) => {
        const origins: string[] = [];
        for (const item of (v ?? '').split(/[\s,]+/).filter(Boolean)) {
          const url = URL.canParse(item) ? new URL(item) : undefined;
          if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
            ctx.addIssue({
              code: 'custom',
              message: `«${item}» no es un origen web: escribe direcciones como https://cdn.example.org separadas por comas`,
            });
            continue;
          }
          origins.push(url.origin);
        }
        return origins;
      }),
    AIRTABLE_TOKEN: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined),
    AIRTABLE_BASE_ID: z
      .string()
      .trim()
      .regex(/^app[A-Za-z0-9]{3,40}$/, 'debe ser el id de la base, que empieza por app (por ejemplo appXXXXXXXXXXXXXX)')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    AIRTABLE_RECORDS_TABLE: z.string().trim().min(1).default('Zulia'),
    AIRTABLE_AGENDA_TABLE: z.string().trim().min(1).default('agenda'),
    AIRTABLE_API_URL: z
      .url({ message: 'debe ser una URL completa, por ejemplo https://api.airtable.com' })
      .default('https://api.airtable.com'),
    AIRTABLE_WRITEBACK: boolFlag(false),
    STORAGE: z.enum(['local', 's3', 'dropbox']).default('local'),
    S3_ENDPOINT: optionalUrl('debe ser una URL completa, por ejemplo https://s3.example.org'),
    S3_REGION: z.string().trim().min(1).default('us-east-1'),
    S3_BUCKET: optionalText(),
    S3_ACCESS_KEY_ID: optionalText(),
    S3_SECRET_ACCESS_KEY: optionalText(),
    S3_FORCE_PATH_STYLE: boolFlag(true),
    S3_PREFIX: z
      .string()
      .trim()
      .regex(/^([A-Za-z0-9._-]+\/)*$/, 'debe ser vacía o terminar en / (por ejemplo comando/fotos/)')
      .default(''),
    S3_TIMEOUT_MS: z.coerce
      .number({ message: 'debe ser un número de milisegundos' })
      .int('debe ser un número entero de milisegundos')
      .min(1_000, 'debe ser al menos 1000 (un segundo)')
      .default(30_000),
    DROPBOX_APP_KEY: optionalText(),
    DROPBOX_APP_SECRET: optionalText(),
    DROPBOX_REFRESH_TOKEN: optionalText(),
    DROPBOX_API_URL: z
      .url({ message: 'debe ser una URL completa, por ejemplo https://api.dropboxapi.com' })
      .default('https://api.dropboxapi.com'),
    DROPBOX_CONTENT_URL: z
      .url({ message: 'debe ser una URL completa, por ejemplo https://content.dropboxapi.com' })
      .default('https://content.dropboxapi.com'),
    AUTH_PROVIDER: z.enum(['local', 'firebase']).default('local'),
    FIREBASE_PROJECT_ID: z
      .string()
      .trim()
      .regex(/^[a-z0-9-]{4,40}$/, 'debe ser el id del proyecto de Firebase, por ejemplo comando-zulia')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    FIREBASE_API_KEY: optionalText(),
    // As firebase-admin and `firebase emulators:start` write it: host:port, no scheme.
    FIREBASE_AUTH_EMULATOR_HOST: z
      .string()
      .trim()
      .regex(
        /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/,
        'debe ser host:puerto, como lo usa firebase-admin (por ejemplo 127.0.0.1:9099)',
      )
      .optional()
      .or(z.literal('').transform(() => undefined)),
    FIREBASE_AUTH_EMULATOR_URL: optionalUrl('debe ser una URL completa, por ejemplo http://127.0.0.1:9099'),
    FIREBASE_JWKS_URL: optionalUrl('debe ser una URL completa'),
    IDEMPOTENCY_KEY_DAYS: wholeNumber(7, 'días', [1, 'debe ser al menos 1 día'], [365, 'debe ser como mucho 365 días']),
    RESUMABLE_UPLOAD_HOURS: wholeNumber(
      24,
      'horas',
      [1, 'debe ser al menos 1 hora'],
      [720, 'debe ser como mucho 720 horas (30 días)'],
    ),
    RESUMABLE_UPLOAD_BUDGET_MB: wholeNumber(
      200,
      'megabytes',
      [1, 'debe ser al menos 1 MB'],
      [100_000, 'debe ser como mucho 100000 MB'],
    ),
    DATA_DIR_MIN_FREE_MB: wholeNumber(
      1024,
      'megabytes',
      [0, 'debe ser 0 (sin mínimo) o más'],
      [10_000_000, 'debe ser como mucho 10000000 MB'],
    ),
    EVIDENCE_PRIVATE_KEY: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v.replace(/\\n/g, '\n') : undefined))
      .refine((v) => v === undefined || isEd25519PrivateKey(v), {
        message: 'debe ser una clave privada Ed25519 en PEM (openssl genpkey -algorithm ed25519)',
      }),
    // The key that encrypts the TOTP secrets (docs/decisions/086); absent: the one made in the data folder.
    SECOND_FACTOR_KEY: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || (/^[A-Za-z0-9+/]{43}=$/.test(v) && Buffer.from(v, 'base64').length === 32), {
        message: 'debe ser una clave de 32 bytes en base64 (openssl rand -base64 32)',
      }),
    // A city database in MaxMind DB format for the places of 'Sesiones abiertas' (docs/decisions/086).
    GEOIP_DATABASE: optionalText(),
    TIMESTAMP_URL: optionalUrl('debe ser la URL completa de una autoridad de sellado de tiempo (RFC 3161)'),
    // Whoever has it reads /metrics (docs/decisions/075); without it /metrics answers 404.
    METRICS_TOKEN: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .pipe(
        z
          .string()
          .min(32, 'debe tener al menos 32 caracteres (por ejemplo, la salida de openssl rand -hex 32)')
          .regex(/^[\x21-\x7e]+$/, 'debe ser una sola palabra de caracteres visibles, sin espacios')
          .optional(),
      ),
    // Votes by SMS through an Android SMS gateway (docs/decisions/084): all four, or none (off).
    SMS_GATEWAY_URL: optionalUrl(
      'debe ser la URL completa de la API de la pasarela, por ejemplo https://api.sms-gate.app/3rdparty/v1',
    ),
    SMS_GATEWAY_LOGIN: optionalText(),
    SMS_GATEWAY_PASSWORD: optionalText(),
    SMS_WEBHOOK_SIGNING_KEY: optionalText(),
    /** The gateway phone's own number, the one validators text (shown in Mensajes); optional. */
    SMS_GATEWAY_PHONE: optionalText().refine((v) => v === undefined || normalisePhone(v) !== undefined, {
      message: 'debe ser un número de teléfono, por ejemplo 0414-1234567 o +584141234567',
    }),
    // The off-machine copy of the SQLite database, kept by Litestream (docs/decisions/106).
    REPLICA_URL: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || /^s3:\/\/[^/\s]+(\/\S*)?$/.test(v) || /^file:\/\/\/\S*$/.test(v), {
        message:
          'debe ser s3://<bucket>/<carpeta> (un bucket compatible con S3) o file:///<carpeta> (otro disco), por ejemplo s3://comando-copias/zulia',
      }),
    REPLICA_S3_ENDPOINT: optionalUrl('debe ser una URL completa, por ejemplo https://s3.example.org'),
    REPLICA_S3_REGION: z.string().trim().min(1).default('us-east-1'),
    REPLICA_S3_ACCESS_KEY_ID: optionalText(),
    REPLICA_S3_SECRET_ACCESS_KEY: optionalText(),
    REPLICA_S3_FORCE_PATH_STYLE: boolFlag(true),
    /** How often Litestream sends the new part of the WAL (seconds): the window of what a lost machine loses. */
    REPLICA_SYNC_SECONDS: wholeNumber(
      1,
      'segundos',
      [1, 'debe ser al menos 1 segundo'],
      [60, 'debe ser como mucho 60 segundos'],
    ),
    COMANDO_NOW: z.iso
      .datetime({ offset: true, message: 'debe ser una fecha ISO 8601, por ejemplo 2026-11-23T03:30:00Z' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
  })
  .superRefine((env, ctx) => {
    const requireWith = (setting: string, names: readonly (keyof typeof env)[], why = '') => {
      for (const name of names) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: `es obligatoria con ${setting}${why}` });
      }
    };
    const refuseInProduction = (name: 'FIREBASE_AUTH_EMULATOR_URL' | 'FIREBASE_AUTH_EMULATOR_HOST' | 'COMANDO_NOW') => {
      if (env[name] && env.NODE_ENV === 'production') {
        ctx.addIssue({ code: 'custom', path: [name], message: 'no se permite con NODE_ENV=production' });
      }
    };
    if (env.NOTAS_SOURCE === 'wordpress') requireWith('NOTAS_SOURCE=wordpress', ['WORDPRESS_URL']);
    if (env.AIRTABLE_WRITEBACK) {
      requireWith('AIRTABLE_WRITEBACK=1', ['AIRTABLE_TOKEN', 'AIRTABLE_BASE_ID']);
      // The photo links written into Airtable are built from it.
      requireWith('AIRTABLE_WRITEBACK=1', ['PUBLIC_ORIGIN'], ' (forma los enlaces de las fotos)');
    }
    if (env.STORAGE === 's3') {
      requireWith('STORAGE=s3', ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']);
    }
    if (env.REPLICA_URL?.startsWith('s3://')) {
      requireWith('REPLICA_URL=s3://…', ['REPLICA_S3_ACCESS_KEY_ID', 'REPLICA_S3_SECRET_ACCESS_KEY']);
    }
    if (env.REPLICA_URL && env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['REPLICA_URL'],
        message:
          'solo se usa con SQLite (Litestream); con DATABASE_URL la copia es un servidor PostgreSQL en espera (README, «Off-machine copy»)',
      });
    }
    if (env.STORAGE === 'dropbox') {
      requireWith('STORAGE=dropbox', ['DROPBOX_APP_KEY', 'DROPBOX_APP_SECRET', 'DROPBOX_REFRESH_TOKEN']);
    }
    if (env.AUTH_PROVIDER === 'firebase') {
      requireWith('AUTH_PROVIDER=firebase', ['FIREBASE_PROJECT_ID', 'FIREBASE_API_KEY']);
    }
    // Same-origin checks, cookies and links need the app's real address; the Host header is the client's word.
    if (env.NODE_ENV === 'production' && !env.PUBLIC_ORIGIN) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_ORIGIN'],
        message:
          'es obligatoria con NODE_ENV=production: la dirección pública de la app, por ejemplo https://comando.example.org',
      });
    }
    if (env.TRUST_PROXY === true && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['TRUST_PROXY'],
        message:
          'no puede confiar en cualquiera con NODE_ENV=production (cada cliente escribiría su propia dirección): indica cuántos proxies hay delante (por ejemplo 1) o sus direcciones',
      });
    }
    const smsNames = [
      'SMS_GATEWAY_URL',
      'SMS_GATEWAY_LOGIN',
      'SMS_GATEWAY_PASSWORD',
      'SMS_WEBHOOK_SIGNING_KEY',
    ] as const;
    const smsGiven = smsNames.filter((name) => env[name]);
    if (smsGiven.length > 0 && smsGiven.length < smsNames.length) {
      for (const name of smsNames) {
        if (!env[name]) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `falta: los votos por SMS necesitan las cuatro (${smsNames.join(', ')}), o ninguna para dejarlos apagados`,
          });
        }
      }
    }
    if (env.SMS_GATEWAY_PHONE && smsGiven.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMS_GATEWAY_PHONE'],
        message: `solo sirve con los votos por SMS encendidos (${smsNames.join(', ')})`,
      });
    }
    refuseInProduction('FIREBASE_AUTH_EMULATOR_URL');
    refuseInProduction('FIREBASE_AUTH_EMULATOR_HOST');
    refuseInProduction('COMANDO_NOW');
    if (env.FIREBASE_AUTH_EMULATOR_HOST && env.FIREBASE_AUTH_EMULATOR_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['FIREBASE_AUTH_EMULATOR_URL'],
        message:
          'usa solo una: FIREBASE_AUTH_EMULATOR_HOST para el emulador oficial (tokens sin firma), FIREBASE_AUTH_EMULATOR_URL para un sustituto que firma sus tokens',
      });
    }
    // Whoever serves another key set could sign a token for any account.
    if (env.FIREBASE_JWKS_URL && env.FIREBASE_JWKS_URL !== GOOGLE_FIREBASE_JWKS_URL && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['FIREBASE_JWKS_URL'],
        message:
          'es solo para pruebas y no se permite con NODE_ENV=production: en producción los tokens se comprueban siempre con las claves de Google',
      });
    }
  });

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL: how long to keep trying to connect at start (0: once). */
  databaseConnectRetryMs: number;
  demo: boolean;
  logLevel: string;
  publicOrigin: string | undefined;
  /** Fastify's trustProxy: whom to believe about the client's address (see TRUST_PROXY). */
  trustProxy: TrustProxy;
  /** How long a request body (uploads excepted) and a whole request (uploads included) may take to arrive. */
  timeouts: RequestTimeouts;
  /** Who may read the API reference (/api/docs, /api/openapi.json): anyone, or signed-in admins. */
  apiDocs: 'public' | 'admins';
  campaignName: string;
  /** Where the notas come from: our database, or a WordPress site's REST API. */
  notas: { source: 'local' } | WordpressNotasConfig;
  /**
   * The Airtable base of the original app: read by `npm run cli -- airtable:import`, and written back
   * (new votes and photos of the records that came from it) when `writeback` is on.
   */
  airtable: AirtableConfig;
  /** SQLite's continuous off-machine copy (Litestream), when REPLICA_URL is set (docs/decisions/106). */
  replica: ReplicaConfig | undefined;
  /** Where photo files live: `DATA_DIR/photos`, an S3-compatible bucket, or Dropbox. */
  storage: StorageConfig;
  /** Who checks passwords: our own accounts, or Firebase Auth (access still comes from our lists). */
  auth: AuthProviderConfig;
  /**
   * How many days the server remembers an `Idempotency-Key` of a vote or photo and the answer it got:
   * a phone that retries within them gets that answer again.
   */
  idempotencyKeyDays: number;
  /**
   * How many hours an unfinished resumable photo upload (tus) is kept, counted from its creation: a
   * phone may continue it within them; then its bytes are removed.
   */
  resumableUploadHours: number;
  /**
   * Bytes one person's unfinished resumable uploads may add up to (each counted by the size it declared
   * at creation, Upload-Length): beyond them, a new upload waits until one finishes or expires.
   */
  resumableUploadBudgetBytes: number;
  /**
   * Free space the data folder's disk keeps for the database and the photos already accepted: a new
   * upload that would leave less is refused (507), and `/api/ready` says not ready below it. 0: no floor.
   */
  dataDirMinFreeBytes: number;
  /** Where the built SPA lives; absent in API-only tests. */
  webRoot: string | undefined;
  /** The built module that renders the public pages on the server (`npm run build`); absent in API-only tests. */
  rendererModule: string | undefined;
  /**
   * The evidence packages' signing key (EVIDENCE_PRIVATE_KEY, an Ed25519 PEM; absent: the key made at
   * first start in the data folder) and the RFC 3161 time-stamp authority their chain head is stamped by
   * (TIMESTAMP_URL; absent: none). Optional: absent means neither.
   */
  evidence?: { privateKeyPem: string | undefined; timestampUrl: string | undefined };
  /**
   * The key that encrypts the TOTP secrets in the database (SECOND_FACTOR_KEY, 32 bytes in base64;
   * absent: the key made at first start in the data folder). Every instance of one database needs the same.
   */
  secondFactorKey?: string | undefined;
  /**
   * A city database in MaxMind DB format (.mmdb: DB-IP's City Lite, MaxMind's GeoLite2 City) that names
   * the place of each open session's IP (GEOIP_DATABASE); absent: no places, only 'Red local'.
   */
  geoipDatabase?: string | undefined;
  /** The bearer token Prometheus sends to read /metrics; undefined: /metrics is off (404). */
  metricsToken: string | undefined;
  /** The server's clock. Tests and demos may start it at another instant; it then runs normally. */
  now: () => Date;
  /**
   * Votes by SMS through an Android SMS gateway (docs/decisions/084): its API, the credentials replies
   * are sent with and the key its webhooks are signed with. Absent: off (the webhook answers 404).
   */
  sms?: SmsGatewayConfig;
}

export interface SmsGatewayConfig {
  /** The gateway's API, e.g. https://api.sms-gate.app/3rdparty/v1 (no trailing slash). */
  url: string;
  login: string;
  password: string;
  signingKey: string;
  /** The gateway phone's number in normalisePhone's form, when it was given (SMS_GATEWAY_PHONE). */
  phone?: string | null;
}

/** false: nobody; a number: that many proxy hops; a list: those addresses and networks; true: everyone. */
export type TrustProxy = boolean | number | string[];

/**
 * TRUST_PROXY as Fastify's trustProxy option. Fastify 5 no longer honours a bare hop count (it cannot
 * tell the proxy from a client that connects directly), so a count becomes the equivalent function:
 * the n addresses nearest to us (the peer, then what each proxy appended) are proxies, the next one is
 * the client. Safe only when the app cannot be reached except through those proxies.
 */
export function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  const hops = trust;
  return hops === 0 ? false : (_address, hop) => hop < hops;
}

export interface WordpressNotasConfig {
  source: 'wordpress';
  url: string;
  /** Posts asked per request (WordPress allows 1–100). */
  pageSize: number;
  /** Time limit of a request's first try; each later try doubles it. */
  timeoutMs: number;
  /** Requests to WordPress at the same time while a copy is read. */
  concurrency: number;
  /** Origins images may come from besides the site itself and the ones its posts use. */
  imageOrigins: string[];
}

export interface AirtableConfig {
  /** Personal access token; only ever from the environment. */
  token: string | undefined;
  baseId: string | undefined;
  recordsTable: string;
  agendaTable: string;
  /** https://api.airtable.com, or a local stand-in in tests. */
  apiUrl: string;
  writeback: boolean;
}

export type StorageConfig =
  | { driver: 'local' }
  | {
      driver: 's3';
      /** Empty: AWS itself; otherwise any S3-compatible endpoint (MinIO, R2, a local server in tests). */
      endpoint: string | undefined;
      region: string;
      bucket: string;
      accessKeyId: string;
      secretAccessKey: string;
      forcePathStyle: boolean;
      /** Prepended to every object key ('' or ending in '/'). */
      prefix: string;
      /**
       * Longest wait for the bucket: each request, each call with its retries, and an upload without
       * progress. Then the call fails as "storage unavailable" (503).
       */
      timeoutMs: number;
    }
  | {
      driver: 'dropbox';
      appKey: string;
      appSecret: string;
      refreshToken: string;
      /** https://api.dropboxapi.com, or a local stand-in in tests. */
      apiUrl: string;
      /** https://content.dropboxapi.com, or a local stand-in in tests. */
      contentUrl: string;
    };

export type AuthProviderConfig =
  | { provider: 'local' }
  | {
      provider: 'firebase';
      projectId: string;
      /** The web API key: the one Firebase value the browser receives. */
      apiKey: string;
      /**
       * Tests and local trials: the SDK talks to this emulator or Identity Toolkit stand-in instead of
       * Google (FIREBASE_AUTH_EMULATOR_URL, or http://FIREBASE_AUTH_EMULATOR_HOST).
       */
      emulatorUrl: string | undefined;
      /**
       * FIREBASE_AUTH_EMULATOR_HOST is set: the official emulator's unsigned ID tokens are accepted, and
       * only those, as firebase-admin does. Never in production.
       */
      emulatorTokens: boolean;
      /** Google's published signing keys of Firebase ID tokens (JWK set). */
      jwksUrl: string;
    };

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Configuración inválida:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const MB = 1024 * 1024;

const SECRET_NAME = /TOKEN|SECRET|PASSWORD|API_KEY|ACCESS_KEY|PRIVATE_KEY|FACTOR_KEY|SIGNING_KEY|DATABASE_URL/;

/** Parses the environment. Every bad variable is named in one message (ConfigError). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(entorno)';
      const value = env[name];
      // Secrets are never echoed back: the message lands in logs and terminals.
      const shown = value === undefined || SECRET_NAME.test(name) ? '' : ` (valor recibido: "${value}")`;
      return `${name}: ${issue.message}${shown}`;
    });
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseConnectRetryMs: e.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000,
    demo: e.COMANDO_DEMO,
    logLevel: e.LOG_LEVEL,
    publicOrigin: e.PUBLIC_ORIGIN ? new URL(e.PUBLIC_ORIGIN).origin : undefined,
    trustProxy: e.TRUST_PROXY,
    timeouts: { bodyMs: e.BODY_TIMEOUT_SECONDS * 1000, requestMs: e.REQUEST_TIMEOUT_SECONDS * 1000 },
    apiDocs: e.API_DOCS ?? (e.NODE_ENV === 'production' ? 'admins' : 'public'),
    campaignName: e.CAMPAIGN_NAME,
    notas:
      e.NOTAS_SOURCE === 'wordpress' && e.WORDPRESS_URL
        ? {
            source: 'wordpress',
            url: e.WORDPRESS_URL.replace(/\/+$/, ''),
            pageSize: e.WORDPRESS_PAGE_SIZE,
            timeoutMs: e.WORDPRESS_TIMEOUT_MS,
            concurrency: e.WORDPRESS_CONCURRENCY,
            imageOrigins: e.WORDPRESS_IMAGE_ORIGINS,
          }
        : { source: 'local' },
    airtable: {
      token: e.AIRTABLE_TOKEN,
      baseId: e.AIRTABLE_BASE_ID,
      recordsTable: e.AIRTABLE_RECORDS_TABLE,
      agendaTable: e.AIRTABLE_AGENDA_TABLE,
      apiUrl: e.AIRTABLE_API_URL.replace(/\/+$/, ''),
      writeback: e.AIRTABLE_WRITEBACK,
    },
    storage: storageConfig(e),
    replica: replicaConfig(e),
    auth:
      e.AUTH_PROVIDER === 'firebase' && e.FIREBASE_PROJECT_ID && e.FIREBASE_API_KEY
        ? {
            provider: 'firebase',
            projectId: e.FIREBASE_PROJECT_ID,
            apiKey: e.FIREBASE_API_KEY,
            emulatorUrl: e.FIREBASE_AUTH_EMULATOR_HOST
              ? `http://${e.FIREBASE_AUTH_EMULATOR_HOST}`
              : e.FIREBASE_AUTH_EMULATOR_URL?.replace(/\/+$/, ''),
            emulatorTokens: e.FIREBASE_AUTH_EMULATOR_HOST !== undefined,
            jwksUrl: e.FIREBASE_JWKS_URL ?? GOOGLE_FIREBASE_JWKS_URL,
          }
        : { provider: 'local' },
    idempotencyKeyDays: e.IDEMPOTENCY_KEY_DAYS,
    resumableUploadHours: e.RESUMABLE_UPLOAD_HOURS,
    resumableUploadBudgetBytes: e.RESUMABLE_UPLOAD_BUDGET_MB * MB,
    dataDirMinFreeBytes: e.DATA_DIR_MIN_FREE_MB * MB,
    webRoot: path.resolve(cwd, 'dist'),
    rendererModule: path.resolve(cwd, 'dist-ssr', 'entry-server.js'),
    evidence: { privateKeyPem: e.EVIDENCE_PRIVATE_KEY, timestampUrl: e.TIMESTAMP_URL },
    secondFactorKey: e.SECOND_FACTOR_KEY,
    geoipDatabase: e.GEOIP_DATABASE && readableFile(path.resolve(cwd, e.GEOIP_DATABASE), 'GEOIP_DATABASE'),
    metricsToken: e.METRICS_TOKEN,
    now: makeClock(e.COMANDO_NOW),
    sms:
      e.SMS_GATEWAY_URL && e.SMS_GATEWAY_LOGIN && e.SMS_GATEWAY_PASSWORD && e.SMS_WEBHOOK_SIGNING_KEY
        ? {
            url: e.SMS_GATEWAY_URL.replace(/\/+$/, ''),
            login: e.SMS_GATEWAY_LOGIN,
            password: e.SMS_GATEWAY_PASSWORD,
            signingKey: e.SMS_WEBHOOK_SIGNING_KEY,
            phone: e.SMS_GATEWAY_PHONE ? (normalisePhone(e.SMS_GATEWAY_PHONE) ?? null) : null,
          }
        : undefined,
  };
}

/** `file`, if this process can read it; else a ConfigError that says which variable and why. */
function readableFile(file: string, name: string): string {
  try {
    fs.accessSync(file, fs.constants.R_OK);
    if (!fs.statSync(file).isFile()) throw new Error('no es un archivo');
    return file;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no existe' : code === 'EACCES' ? 'no se puede leer' : (error as Error).message;
    throw new ConfigError([`${name}: ${file} ${why}`]);
  }
}

/** A PEM node:crypto reads as an Ed25519 private key. */
function isEd25519PrivateKey(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyType === 'ed25519';
  } catch {
    return false;
  }
}

/** Where Litestream keeps the copy: a bucket (with its credentials) or a folder, and how often it sends. */
export type ReplicaConfig = { syncSeconds: number } & (
  | {
      kind: 's3';
      bucket: string;
      /** Key prefix inside the bucket ('' for its root). */
      path: string;
      /** Empty: AWS itself; otherwise any S3-compatible endpoint. */
      endpoint: string | undefined;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      forcePathStyle: boolean;
    }
  | { kind: 'file'; path: string }
);

function replicaConfig(e: z.infer<typeof envSchema>): ReplicaConfig | undefined {
  const url = e.REPLICA_URL;
  if (!url) return undefined;
  if (url.startsWith('file://'))
    return { kind: 'file', path: path.resolve(url.slice('file://'.length)), syncSeconds: e.REPLICA_SYNC_SECONDS };
  const [bucket = '', ...rest] = url.slice('s3://'.length).split('/');
  return {
    kind: 's3',
    bucket,
    path: rest.filter(Boolean).join('/'),
    endpoint: e.REPLICA_S3_ENDPOINT?.replace(/\/+$/, ''),
    region: e.REPLICA_S3_REGION,
    accessKeyId: e.REPLICA_S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: e.REPLICA_S3_SECRET_ACCESS_KEY ?? '',
    forcePathStyle: e.REPLICA_S3_FORCE_PATH_STYLE,
    syncSeconds: e.REPLICA_SYNC_SECONDS,
  };
}

function storageConfig(e: z.infer<typeof envSchema>): StorageConfig {
  if (e.STORAGE === 's3' && e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY) {
    return {
      driver: 's3',
      endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ''),
      region: e.S3_REGION,
      bucket: e.S3_BUCKET,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
      prefix: e.S3_PREFIX,
      timeoutMs: e.S3_TIMEOUT_MS,
    };
  }
  if (e.STORAGE === 'dropbox' && e.DROPBOX_APP_KEY && e.DROPBOX_APP_SECRET && e.DROPBOX_REFRESH_TOKEN) {
    return {
      driver: 'dropbox',
      appKey: e.DROPBOX_APP_KEY,
      appSecret: e.DROPBOX_APP_SECRET,
      refreshToken: e.DROPBOX_REFRESH_TOKEN,
      apiUrl: e.DROPBOX_API_URL.replace(/\/+$/, ''),
      contentUrl: e.DROPBOX_CONTENT_URL.replace(/\/+$/, ''),
    };
  }
  return { driver: 'local' };
}

function makeClock(startAt: string | undefined): () => Date {
  if (!startAt) return () => new Date();
  const offset = new Date(startAt).getTime() - Date.now();
  return () => new Date(Date.now() + offset);
}
