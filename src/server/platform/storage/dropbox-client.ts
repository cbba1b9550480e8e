import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A small client for Dropbox's HTTP API v2: short-lived access tokens from a long-lived refresh token
 * (renewed ahead of expiry, one refresh at a time), RPC calls on api.dropboxapi.com, uploads and
 * downloads on content.dropboxapi.com, and the documented error answers (401 expired token, 409 with
 * `error_summary`, 429/503 with Retry-After).
 */
export interface DropboxClientOptions {
  appKey: string;
  appSecret: string;
  refreshToken: string;
  apiUrl: string;
  contentUrl: string;
  /** Renew the access token when less than this is left (default 5 minutes). */
  renewBeforeMs?: number;
  /** Retries of one call after 429 or 503 (default 3). */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited out: the call fails at once (default 30 s). */
  maxRetryWaitMs?: number;
  /** Until the answer's headers arrive (default 60 s). */
  timeoutMs?: number;
}

/** An error answer of Dropbox, with the tags of `error_summary` ('path/not_found/..') kept for checks. */
export class DropboxError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** `error_summary` for API errors, the OAuth `error` code for token errors, '' otherwise. */
    readonly summary: string,
    readonly error?: unknown,
  ) {
    super(message);
    this.name = 'DropboxError';
  }

  /** True when the summary starts with these tags: `is('path/not_found')`. */
  is(tags: string): boolean {
    return this.summary === tags || this.summary.startsWith(`${tags}/`);
  }
}

export function isDropboxError(error: unknown, tags: string): error is DropboxError {
  return error instanceof DropboxError && error.is(tags);
}

/**
 * JSON for the Dropbox-API-Arg header: HTTP headers carry bytes, so everything outside printable ASCII
 * is escaped as \uXXXX (documented by Dropbox; "María Pérez" would otherwise be refused or garbled).
 */
export function headerSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

interface AccessToken {
  value: string;
  /** When to stop using it and renew: ahead of its expiry. */
  renewAt: number;
}

type Body = { kind: 'json'; value: unknown } | { kind: 'bytes'; value: Buffer } | { kind: 'none' };

export interface DropboxClient {
  /** An RPC endpoint on the API host (`/2/files/get_metadata`) with a JSON argument → its JSON answer. */
  rpc<T>(route: string, arg: unknown): Promise<T>;
  /** `/2/files/upload`: the bytes in the body, the argument in Dropbox-API-Arg → the file's metadata. */
  upload<T>(arg: unknown, bytes: Buffer): Promise<T>;
  /** `/2/files/download` → the file's bytes as a stream and its metadata (Dropbox-API-Result). */
  download<T>(arg: unknown): Promise<{ stream: Readable; result: T }>;
}

export function createDropboxClient(options: DropboxClientOptions): DropboxClient {
  const renewBeforeMs = options.renewBeforeMs ?? 5 * 60_000;
  const maxRetries = options.maxRetries ?? 3;
  const maxRetryWaitMs = options.maxRetryWaitMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? 60_000;
  let token: AccessToken | undefined;
  let refreshing: Promise<AccessToken> | undefined;

  /** fetch with a deadline for the headers only: a slow reader of a download is not cut off. */
  async function send(url: string, init: RequestInit): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      return await fetch(url, { ...init, signal: controller.signal });
    } catch (error) {
      const reason = controller.signal.aborted ? `sin respuesta en ${timeoutMs / 1000} s` : String(error);
      throw new DropboxError(`No se pudo conectar con Dropbox (${reason})`, 0, '', error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits out a 429 or 503 when allowed; false when the caller should give up. */
  async function waitToRetry(res: Response, attempt: number): Promise<boolean> {
    if (attempt >= maxRetries) return false;
    const header = Number.parseFloat(res.headers.get('retry-after') ?? '');
    const waitMs = Number.isFinite(header) && header >= 0 ? header * 1000 : 2 ** attempt * 1000;
    if (waitMs > maxRetryWaitMs) return false;
    await res.body?.cancel();
    await sleep(waitMs);
    return true;
  }

  async function exchange(): Promise<AccessToken> {
    const basic = Buffer.from(`${options.appKey}:${options.appSecret}`).toString('base64');
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: options.refreshToken });
    for (let attempt = 0; ; attempt++) {
      const res = await send(`${options.apiUrl}/oauth2/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      if ((res.status === 429 || res.status === 503) && (await waitToRetry(res, attempt))) continue;
      const text = await res.text();
      const body = parseJson(text) as { access_token?: string; expires_in?: number; error?: string } | undefined;
      if (res.ok && body?.access_token) {
        // Without expires_in, assume the documented four hours. A token shorter-lived than twice the
        // margin is renewed at half its life.
        const lifeMs = (typeof body.expires_in === 'number' ? body.expires_in : 14_400) * 1000;
        return { value: body.access_token, renewAt: Date.now() + Math.max(lifeMs - renewBeforeMs, lifeMs / 2) };
      }
      const code = body?.error ?? '';
      if (code === 'invalid_grant') {
        throw new DropboxError(
          'Dropbox rechazó DROPBOX_REFRESH_TOKEN (invalid_grant): el token de actualización es inválido o fue revocado; genera uno nuevo',
          res.status,
          code,
        );
      }
      if (code === 'invalid_client' || res.status === 401) {
        throw new DropboxError(
          'Dropbox rechazó DROPBOX_APP_KEY o DROPBOX_APP_SECRET (invalid_client)',
          res.status,
          code || 'invalid_client',
        );
      }
      throw new DropboxError(
        `Dropbox no entregó un token de acceso (HTTP ${res.status}${code ? `, ${code}` : ''})`,
        res.status,
        code,
      );
    }
  }

  /** The current access token, renewed when it is about to expire; concurrent callers share one refresh. */
  async function accessToken(): Promise<AccessToken> {
    if (token && Date.now() < token.renewAt) return token;
    if (!refreshing) {
      refreshing = exchange()
        .then((fresh) => {
          token = fresh;
          return fresh;
        })
        .finally(() => {
          refreshing = undefined;
        });
    }
    return refreshing;
  }

  /**
   * One call with its retries: a 401 for an expired or invalid token renews the token once and repeats
   * the call; 429 and 503 are waited out (Retry-After) a bounded number of times. The body is a Buffer,
   * so a repeat sends the same bytes and the server stores them once (the failed attempt stored nothing).
   */
  async function call(url: string, route: string, arg: unknown, body: Body, headerArg: boolean): Promise<Response> {
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      const used = await accessToken();
      const headers: Record<string, string> = { authorization: `Bearer ${used.value}` };
      let payload: BodyInit | undefined;
      if (headerArg) headers['dropbox-api-arg'] = headerSafeJson(arg);
      if (body.kind === 'json') {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body.value);
      } else if (body.kind === 'bytes') {
        headers['content-type'] = 'application/octet-stream';
        // Node Buffers are backed by an ArrayBuffer (never shared here), which fetch takes as is.
        payload = body.value as Uint8Array<ArrayBuffer>;
      }
      const res = await send(url, { method: 'POST', headers, body: payload });
      if (res.ok) return res;
      if (res.status === 401 && !renewed) {
        const error = await readError(res, route);
        if (!error.is('expired_access_token') && !error.is('invalid_access_token')) throw error;
        // Only drop the token this call used: a concurrent call may already have renewed it.
        if (token === used) token = undefined;
        renewed = true;
        attempt--;
        continue;
      }
      if ((res.status === 429 || res.status === 503) && (await waitToRetry(res, attempt))) continue;
      throw await readError(res, route);
    }
  }

  return {
    async rpc<T>(route: string, arg: unknown): Promise<T> {
      const res = await call(`${options.apiUrl}${route}`, route, arg, { kind: 'json', value: arg }, false);
      const text = await res.text();
      return (text ? JSON.parse(text) : null) as T;
    },

    async upload<T>(arg: unknown, bytes: Buffer): Promise<T> {
      const route = '/2/files/upload';
      const res = await call(`${options.contentUrl}${route}`, route, arg, { kind: 'bytes', value: bytes }, true);
      return (await res.json()) as T;
    },

    async download<T>(arg: unknown) {
      const route = '/2/files/download';
      const res = await call(`${options.contentUrl}${route}`, route, arg, { kind: 'none' }, true);
      const result = JSON.parse(res.headers.get('dropbox-api-result') ?? '{}') as T;
      const stream = res.body
        ? Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>)
        : Readable.from([]);
      return { stream, result };
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A Dropbox error answer as a DropboxError: JSON with error_summary, or plain text (400 bad input). */
async function readError(res: Response, route: string): Promise<DropboxError> {
  const text = await res.text().catch(() => '');
  const body = parseJson(text) as { error_summary?: string; error?: unknown } | undefined;
  const summary = typeof body?.error_summary === 'string' ? body.error_summary : '';
  const detail = summary || text.slice(0, 300) || res.statusText;
  const what =
    res.status === 401
      ? 'Dropbox rechazó la autorización'
      : res.status === 429
        ? 'Dropbox está limitando las solicitudes; intenta de nuevo en unos minutos'
        : res.status === 409
          ? 'Dropbox no pudo completar la operación'
          : `Dropbox respondió HTTP ${res.status}`;
  return new DropboxError(`${what} (${route}: ${detail})`, res.status, summary, body?.error);
}
