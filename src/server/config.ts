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
    COMANDO_NOW: z.iso
      .datetime({ offset: true, message: 'debe ser una fecha ISO 8601, por ejemplo 2026-11-23T03:30:00Z' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
  })
  .superRefine((env, ctx) => {
    if (env.NOTAS_SOURCE === 'wordpress' && !env.WORDPRESS_URL) {
      ctx.addIssue({ code: 'custom', path: ['WORDPRESS_URL'], message: 'es obligatoria con NOTAS_SOURCE=wordpress' });
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
  /** Where the built SPA lives; absent in API-only tests. */
  webRoot: string | undefined;
  /** The server's clock. Tests and demos may start it at another instant; it then runs normally. */
  now: () => Date;
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
    webRoot: path.resolve(cwd, 'dist'),
    now: makeClock(e.COMANDO_NOW),
  };
}

function makeClock(startAt: string | undefined): () => Date {
  if (!startAt) return () => new Date();
  const offset = new Date(startAt).getTime() - Date.now();
  return () => new Date(Date.now() + offset);
}
