// The rehearsal's HTTP: one session per person (its cookies), every request timed by kind, a budget of
// requests, and for phones the field bench's bad link (bandwidth each way, round trip, cuts).

/** The field bench's link (scripts/bench/campo.bench.ts): 2G-like, cut every 20 s. */
export interface LinkModel {
  upKbps: number;
  downKbps: number;
  rttMs: number;
  /** Every open exchange is cut this often, at a moment of its own per phone (null: never by time). */
  cutEveryMs: number | null;
  /**
   * Cuts by count instead (tests): of every `n` requests of a phone, one loses its answer after the server
   * took it and, when it carries a body, the next one is cut while it uploads. Null: by time only.
   */
  cutEveryRequests?: number | null;
}

export const FIELD_LINK: LinkModel = { upKbps: 256, downKbps: 1000, rttMs: 300, cutEveryMs: 20_000 };

/** A request cut by the link: the phone never got its answer (the server may have taken it). */
export class LinkCut extends Error {
  constructor(readonly afterServer: boolean) {
    super(afterServer ? 'corte tras enviar (respuesta perdida)' : 'corte al enviar');
  }
}

/** No answer: the connection failed, timed out or was stopped. */
export class NoAnswer extends Error {}

/** What a phone tries again: a cut of its link, or no answer at all. */
export const isRetryable = (error: unknown) => error instanceof LinkCut || error instanceof NoAnswer;

/** The rehearsal's bound on requests was reached. */
export class BudgetSpent extends Error {
  constructor() {
    super('Se alcanzó el límite de solicitudes del ensayo.');
  }
}

export interface Sample {
  kind: string;
  ms: number;
  /** HTTP status, or 0 for a network failure, -1 for a cut. */
  status: number;
  at: number;
}

/** Everything measured, shared by every session. */
export class Measurements {
  readonly samples: Sample[] = [];
  readonly errors = new Map<string, number>();
  requests = 0;
  constructor(
    readonly maxRequests: number,
    readonly clock: () => number = () => Date.now(),
  ) {}

  note(kind: string, ms: number, status: number): void {
    this.samples.push({ kind, ms, status, at: this.clock() });
  }

  error(kind: string): void {
    this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
  }

  take(): void {
    if (this.requests >= this.maxRequests) throw new BudgetSpent();
    this.requests += 1;
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json<T = unknown>(): T;
}

export interface CallOptions {
  json?: unknown;
  body?: Uint8Array;
  headers?: Record<string, string>;
  /** Bytes of `body` that a cut while uploading still delivers (a tus PATCH keeps what arrived). */
  partialOnCut?: boolean;
  timeoutMs?: number;
  /** Not counted against the budget (the erasure and the checks after it). */
  unbudgeted?: boolean;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export { sleep };

/** One person's connection to the server: cookies, Origin on changes, and (phones) the bad link. */
export class Session {
  private readonly cookies = new Map<string, string>();
  private sent = 0;
  private readonly cutPhase: number;

  constructor(
    readonly base: string,
    readonly origin: string,
    readonly measured: Measurements,
    readonly link: LinkModel | null = null,
    readonly signal?: AbortSignal,
  ) {
    this.cutPhase = Math.random();
  }

  /** The same person (the same cookies) over another link, or none. */
  copy(link: LinkModel | null, signal?: AbortSignal): Session {
    const twin = new Session(this.base, this.origin, this.measured, link, signal);
    (twin as unknown as { cookies: Map<string, string> }).cookies = this.cookies;
    return twin;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** Cuts by time: the first one after `from`, or never. */
  private nextCut(from: number): number {
    const every = this.link?.cutEveryMs;
    if (!every) return Number.POSITIVE_INFINITY;
    const phase = this.cutPhase * every;
    return Math.floor((from - phase) / every + 1) * every + phase;
  }

  async call(kind: string, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    if (!options.unbudgeted) this.measured.take();
    const headers: Record<string, string> = { ...options.headers };
    if (method !== 'GET' && method !== 'HEAD') headers.origin = this.origin;
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    let body: Uint8Array | string | undefined = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const bytesUp = (typeof body === 'string' ? Buffer.byteLength(body) : (body?.length ?? 0)) + 400;
    const link = this.link;
    this.sent += 1;
    const byCount = link?.cutEveryRequests ?? null;
    const loseAnswer = byCount !== null && this.sent % byCount === 0;
    const cutUpload = byCount !== null && body !== undefined && this.sent % byCount === 1 && byCount > 1;

    if (link) {
      const upMs = link.rttMs / 2 + (bytesUp * 8) / link.upKbps;
      const start = Date.now();
      const cut = this.nextCut(start);
      if (cutUpload || cut < start + upMs) {
        const fraction = cutUpload ? 0.5 : (cut - start) / upMs;
        await sleep(cutUpload ? 0 : cut - start, this.signal);
        if (options.partialOnCut && body instanceof Uint8Array && fraction > 0) {
          const part = body.subarray(0, Math.floor(body.length * fraction));
          if (part.length > 0) {
            // What crossed the link before the cut reaches the server; its answer does not reach the phone.
            await this.exchange(kind, method, path, { ...options, body: part }, headers, part).catch(() => {});
          }
        }
        this.measured.note(kind, 0, -1);
        this.measured.error(`${kind}: corte de la conexión`);
        throw new LinkCut(false);
      }
      await sleep(upMs, this.signal);
    }
    const answer = await this.exchange(kind, method, path, options, headers, body);
    if (link) {
      const downMs = link.rttMs / 2 + ((answer.text.length + 300) * 8) / link.downKbps;
      const now = Date.now();
      const cut = this.nextCut(now);
      if (loseAnswer || cut < now + downMs) {
        await sleep(loseAnswer ? 0 : cut - now, this.signal);
        this.measured.error(`${kind}: respuesta perdida en un corte`);
        throw new LinkCut(true);
      }
      await sleep(downMs, this.signal);
    }
    return answer;
  }

  private async exchange(
    kind: string,
    method: string,
    path: string,
    options: CallOptions,
    headers: Record<string, string>,
    body: Uint8Array | string | undefined,
  ): Promise<Answer> {
    const started = performance.now();
    let response: Response;
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
    try {
      response = await fetch(new URL(path, this.base), {
        method,
        headers,
        body: body as BodyInit | undefined,
        redirect: 'manual',
        signal: this.signal ? AbortSignal.any([this.signal, timeout]) : timeout,
      });
    } catch (error) {
      const why =
        error instanceof Error
          ? error.name === 'TimeoutError'
            ? 'tiempo agotado'
            : error.name === 'AbortError'
              ? 'detenido'
              : error.message
          : String(error);
      if (why !== 'detenido') {
        this.measured.note(kind, performance.now() - started, 0);
        this.measured.error(`${kind}: sin respuesta (${why})`);
      }
      throw new NoAnswer(why);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      this.measured.note(kind, performance.now() - started, 0);
      this.measured.error(`${kind}: respuesta cortada`);
      throw new NoAnswer(error instanceof Error ? error.message : String(error));
    }
    const ms = performance.now() - started;
    this.measured.note(kind, ms, response.status);
    if (response.status >= 500) this.measured.error(`${kind}: ${response.status}`);
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (!pair || at < 1) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return {
      status: response.status,
      headers: response.headers,
      text,
      json<T>() {
        return JSON.parse(text) as T;
      },
    };
  }
}

/** The message of an API refusal, or the start of its body. */
export function messageOf(answer: Answer): string {
  try {
    const body = answer.json<{ message?: unknown; error?: unknown }>();
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON
  }
  return answer.text.slice(0, 120);
}
