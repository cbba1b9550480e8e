import path from 'node:path';
import { z } from 'zod';

const boolFlag = (fallback: boolean) =>
  z
    .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(v)));

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
    COMANDO_DEMO: boolFlag(true),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    PUBLIC_ORIGIN: z
      .url({ message: 'debe ser una URL completa, por ejemplo https://comando.example.org' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
    TRUST_PROXY: boolFlag(false),
    CAMPAIGN_NAME: z.string().min(1).default('Comando Zulia'),
    NOTAS_SOURCE: z.enum(['local', 'wordpress']).default('local'),
    WORDPRESS_URL: z
      .url({ message: 'debe ser la URL del sitio WordPress, por ejemplo https://blog.example.org' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
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
    COMANDO_NOW: z.iso
      .datetime({ offset: true, message: 'debe ser una fecha ISO 8601, por ejemplo 2026-11-23T03:30:00Z' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
  })
  .superRefine((env, ctx) => {
    if (env.NOTAS_SOURCE === 'wordpress' && !env.WORDPRESS_URL) {
      ctx.addIssue({ code: 'custom', path: ['WORDPRESS_URL'], message: 'es obligatoria con NOTAS_SOURCE=wordpress' });
    }
    if (env.AIRTABLE_WRITEBACK) {
      const required = 'es obligatoria con AIRTABLE_WRITEBACK=1';
      for (const name of ['AIRTABLE_TOKEN', 'AIRTABLE_BASE_ID'] as const) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: required });
      }
      if (!env.PUBLIC_ORIGIN) {
        // The photo links written into Airtable are built from it.
        ctx.addIssue({
          code: 'custom',
          path: ['PUBLIC_ORIGIN'],
          message: `${required} (forma los enlaces de las fotos)`,
        });
      }
    }
    if (env.COMANDO_NOW && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['COMANDO_NOW'],
        message: 'no se permite con NODE_ENV=production',
      });
    }
  });

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  demo: boolean;
  logLevel: string;
  publicOrigin: string | undefined;
  trustProxy: boolean;
  campaignName: string;
  /** Where the notas come from: our database, or a WordPress site's REST API. */
  notas: { source: 'local' } | { source: 'wordpress'; url: string };
  /**
   * The Airtable base of the original app: read by `npm run cli -- airtable:import`, and written back
   * (new votes and photos of the records that came from it) when `writeback` is on.
   */
  airtable: AirtableConfig;
  /** Where the built SPA lives; absent in API-only tests. */
  webRoot: string | undefined;
  /** The server's clock. Tests and demos may start it at another instant; it then runs normally. */
  now: () => Date;
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

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Configuración inválida:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment. Every bad variable is named in one message (ConfigError). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(entorno)';
      const value = env[name];
      const shown = value === undefined ? '' : ` (valor recibido: "${value}")`;
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
    demo: e.COMANDO_DEMO,
    logLevel: e.LOG_LEVEL,
    publicOrigin: e.PUBLIC_ORIGIN ? new URL(e.PUBLIC_ORIGIN).origin : undefined,
    trustProxy: e.TRUST_PROXY,
    campaignName: e.CAMPAIGN_NAME,
    notas:
      e.NOTAS_SOURCE === 'wordpress' && e.WORDPRESS_URL
        ? { source: 'wordpress', url: e.WORDPRESS_URL.replace(/\/+$/, '') }
        : { source: 'local' },
    airtable: {
      token: e.AIRTABLE_TOKEN,
      baseId: e.AIRTABLE_BASE_ID,
      recordsTable: e.AIRTABLE_RECORDS_TABLE,
      agendaTable: e.AIRTABLE_AGENDA_TABLE,
      apiUrl: e.AIRTABLE_API_URL.replace(/\/+$/, ''),
      writeback: e.AIRTABLE_WRITEBACK,
    },
    webRoot: path.resolve(cwd, 'dist'),
    now: makeClock(e.COMANDO_NOW),
  };
}

function makeClock(startAt: string | undefined): () => Date {
  if (!startAt) return () => new Date();
  const offset = new Date(startAt).getTime() - Date.now();
  return () => new Date(Date.now() + offset);
}
