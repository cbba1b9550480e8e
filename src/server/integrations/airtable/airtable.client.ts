import { z } from 'zod';
import { baseRateLimiter, type RateLimiter } from './airtable.rate-limit';

/** One row of an Airtable table as the REST API answers it. */
export interface AirtableRecord {
  id: string;
  createdTime?: string;
  fields: Record<string, unknown>;
}

export type AirtableErrorKind =
  | 'auth'
  | 'not_found'
  | 'invalid_request'
  | 'rate_limited'
  | 'unavailable'
  | 'bad_response';

/** Airtable could not do what was asked; the message is Spanish and safe to show to an operator. */
export class AirtableError extends Error {
  constructor(
    public readonly kind: AirtableErrorKind,
    message: string,
    /** HTTP status, when Airtable answered at all. */
    public readonly status: number | null = null,
    /** Airtable's error type (INVALID_FILTER_BY_FORMULA, ROW_DOES_NOT_EXIST…), when it gave one. */
    public readonly type: string | null = null,
  ) {
    super(message);
    this.name = 'AirtableError';
  }

  /** Worth trying again later: Airtable (or the way to it) was down, busy or garbled. */
  get retryable(): boolean {
    return this.kind === 'unavailable' || this.kind === 'bad_response' || this.kind === 'rate_limited';
  }
}

/** At most this many records per PATCH (Airtable answers 422 INVALID_RECORDS beyond). */
export const AIRTABLE_MAX_RECORDS_PER_UPDATE = 10;
export const AIRTABLE_PAGE_SIZE = 100;
/** Airtable's instruction after a 429: wait 30 seconds before the next request. */
export const AIRTABLE_RATE_LIMIT_WAIT_MS = 30_000;

export interface AirtableClientOptions {
  token: string;
  baseId: string;
  apiUrl?: string;
  /** Per request, answer included. */
  timeoutMs?: number;
  /** Tries per request when Airtable is unreachable, fails (5xx), is too slow or answers garbage. */
  attempts?: number;
  /** Wait before the second try; doubled for each later one. */
  retryDelayMs?: number;
  /** How long a 429 waits before trying again, and how many 429s in a row are borne. */
  rateLimitWaitMs?: number;
  maxRateLimitWaits?: number;
  /** Every wait goes through here (tests pass one that does not sleep). */
  sleep?: (ms: number) => Promise<void>;
  /** Defaults to the bucket this process shares for the base (5 requests per second). */
  limiter?: RateLimiter;
  fetch?: typeof fetch;
}

const recordSchema = z.object({
  id: z.string().min(1),
  createdTime: z.string().optional(),
  fields: z.record(z.string(), z.unknown()),
});
const listSchema = z.object({ records: z.array(recordSchema), offset: z.string().min(1).optional() });
const updateSchema = z.object({ records: z.array(recordSchema) });

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The error type in any of the shapes Airtable uses: {error:{type}}, {error:'X'}, {errors:[{error}]}. */
function errorDetails(body: unknown): { type: string | null; message: string | null } {
  if (!body || typeof body !== 'object') return { type: null, message: null };
  const b = body as { error?: unknown; errors?: unknown };
  if (typeof b.error === 'string') return { type: b.error, message: null };
  if (b.error && typeof b.error === 'object') {
    const e = b.error as { type?: unknown; message?: unknown };
    return {
      type: typeof e.type === 'string' ? e.type : null,
      message: typeof e.message === 'string' ? e.message : null,
    };
  }
  if (Array.isArray(b.errors) && b.errors[0] && typeof b.errors[0] === 'object') {
    const e = b.errors[0] as { error?: unknown; message?: unknown };
    return {
      type: typeof e.error === 'string' ? e.error : null,
      message: typeof e.message === 'string' ? e.message : null,
    };
  }
  return { type: null, message: null };
}

/** Why a request got no answer, in a few words: a timeout, or the system's error code. */
function networkReason(error: unknown, timeoutMs: number): string {
  const e = error as Error & { cause?: { code?: unknown } };
  if (e.name === 'TimeoutError') return `sin respuesta en ${timeoutMs / 1000} s`;
  const code = typeof e.cause?.code === 'string' ? ` (${e.cause.code})` : '';
  return `${e.message}${code}`;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * The Airtable REST API (v0) of one base: list a table page by page (100 a page, following `offset`,
 * optionally with `filterByFormula`) and update up to 10 records per PATCH. Never more than five
 * requests per second for the base; a 429 waits 30 s and tries again; an unreachable, failing or slow
 * Airtable is tried a few times with growing waits before giving up with a named error.
 */
export function createAirtableClient(options: AirtableClientOptions) {
  const apiUrl = (options.apiUrl ?? 'https://api.airtable.com').replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const attempts = Math.max(1, options.attempts ?? 4);
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  const rateLimitWaitMs = options.rateLimitWaitMs ?? AIRTABLE_RATE_LIMIT_WAIT_MS;
  const maxRateLimitWaits = options.maxRateLimitWaits ?? 10;
  const sleep = options.sleep ?? realSleep;
  const limiter = options.limiter ?? baseRateLimiter(apiUrl, options.baseId);
  const doFetch = options.fetch ?? fetch;
  const tableUrl = (table: string) => `${apiUrl}/v0/${encodeURIComponent(options.baseId)}/${encodeURIComponent(table)}`;

  /** One try: the parsed JSON of a 2xx, or a named error. */
  async function once(method: 'GET' | 'PATCH', url: string, table: string, body?: unknown): Promise<unknown> {
    const answered = await limiter.take();
    let res: Response;
    let text: string;
    try {
      res = await doFetch(url, {
        method,
        headers: {
          authorization: `Bearer ${options.token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await res.text();
    } catch (error) {
      throw new AirtableError('unavailable', `No se pudo hablar con Airtable: ${networkReason(error, timeoutMs)}.`);
    } finally {
      // The answer (or the failure) is in: the request has arrived, its token counts from now.
      answered();
    }
    const parsed = parseJson(text);
    if (res.ok) {
      if (!parsed.ok) {
        throw new AirtableError('bad_response', `Airtable respondió ${res.status} con un JSON inválido.`, res.status);
      }
      return parsed.value;
    }
    const { type, message } = parsed.ok ? errorDetails(parsed.value) : { type: null, message: null };
    const said = `${res.status}${type ? ` ${type}` : ''}${message ? `: ${message}` : ''}`;
    if (res.status === 401) {
      throw new AirtableError(
        'auth',
        `Airtable rechazó el acceso (${said}). Revisa AIRTABLE_TOKEN y que el token pueda leer y escribir la base ${options.baseId}.`,
        res.status,
        type,
      );
    }
    if (res.status === 403) {
      // With a personal access token Airtable answers a misspelled table or base this way too.
      throw new AirtableError(
        'auth',
        `Airtable rechazó el acceso a la tabla «${table}» de la base ${options.baseId} (${said}). Revisa que la tabla «${table}» exista con ese nombre exacto (AIRTABLE_RECORDS_TABLE, AIRTABLE_AGENDA_TABLE), AIRTABLE_BASE_ID, y que el token de AIRTABLE_TOKEN pueda leer y escribir esa base.`,
        res.status,
        type,
      );
    }
    if (res.status === 404) {
      throw new AirtableError(
        'not_found',
        `Airtable no encuentra la tabla «${table}» en la base ${options.baseId} (${said}). Revisa AIRTABLE_BASE_ID y el nombre de la tabla.`,
        res.status,
        type,
      );
    }
    if (res.status === 429) {
      throw new AirtableError('rate_limited', `Airtable pidió esperar (${said}).`, res.status, type);
    }
    if (res.status >= 500) {
      throw new AirtableError('unavailable', `Airtable falló (${said}).`, res.status, type);
    }
    throw new AirtableError('invalid_request', `Airtable rechazó la solicitud (${said}).`, res.status, type);
  }

  /** One request with its retries: 429s wait 30 s; outages wait 1, 2, 4… s, `attempts` tries in all. */
  async function request(method: 'GET' | 'PATCH', url: string, table: string, body?: unknown): Promise<unknown> {
    let failures = 0;
    let rateLimited = 0;
    for (;;) {
      try {
        return await once(method, url, table, body);
      } catch (error) {
        if (!(error instanceof AirtableError) || !error.retryable) throw error;
        if (error.kind === 'rate_limited') {
          if (++rateLimited > maxRateLimitWaits) throw error;
          await sleep(rateLimitWaitMs);
          continue;
        }
        if (++failures >= attempts) throw error;
        await sleep(retryDelayMs * 2 ** (failures - 1));
      }
    }
  }

  return {
    baseId: options.baseId,

    /**
     * Every page of a table, in Airtable's order, 100 records a page, until Airtable returns no
     * `offset`. `filterByFormula` is passed as is (Airtable answers 422 to a formula it cannot read).
     */
    async *pages(table: string, query: { filterByFormula?: string } = {}): AsyncGenerator<AirtableRecord[]> {
      let offset: string | undefined;
      const seen = new Set<string>();
      do {
        const params = new URLSearchParams({ pageSize: String(AIRTABLE_PAGE_SIZE) });
        if (offset) params.set('offset', offset);
        if (query.filterByFormula) params.set('filterByFormula', query.filterByFormula);
        const body = await request('GET', `${tableUrl(table)}?${params}`, table);
        const page = listSchema.safeParse(body);
        if (!page.success) {
          throw new AirtableError('bad_response', `Airtable respondió algo que no es una página de «${table}».`, 200);
        }
        yield page.data.records;
        offset = page.data.offset;
        if (offset && seen.has(offset)) {
          throw new AirtableError('bad_response', `Airtable repitió la misma página de «${table}».`, 200);
        }
        if (offset) seen.add(offset);
      } while (offset);
    },

    /** The whole table (see `pages`). */
    async list(table: string, query: { filterByFormula?: string } = {}): Promise<AirtableRecord[]> {
      const all: AirtableRecord[] = [];
      for await (const page of this.pages(table, query)) all.push(...page);
      return all;
    },

    /** Changes some fields of up to 10 records in one PATCH; the others keep their values. */
    async update(table: string, records: { id: string; fields: Record<string, unknown> }[]): Promise<AirtableRecord[]> {
      if (records.length === 0) return [];
      if (records.length > AIRTABLE_MAX_RECORDS_PER_UPDATE) {
        throw new AirtableError(
          'invalid_request',
          `Airtable acepta como máximo ${AIRTABLE_MAX_RECORDS_PER_UPDATE} registros por solicitud (se pidieron ${records.length}).`,
        );
      }
      const body = await request('PATCH', tableUrl(table), table, { records });
      const parsed = updateSchema.safeParse(body);
      if (!parsed.success) {
        throw new AirtableError(
          'bad_response',
          `Airtable respondió algo que no es la lista de registros cambiados.`,
          200,
        );
      }
      return parsed.data.records;
    },
  };
}
export type AirtableClient = ReturnType<typeof createAirtableClient>;
