import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';

type RequestLogLevel = 'info' | 'debug';

/**
 * The level of Fastify's two lines per request ('incoming request', 'request completed'): `info` in
 * production, where they are the JSON a log store keeps; `debug` elsewhere, so a developer's terminal
 * shows only what matters unless they ask for them with LOG_LEVEL=debug. A request that failed is
 * logged at `error` either way, and the error handler logs what went wrong.
 */
export function requestLogLevel(env: 'development' | 'production' | 'test'): RequestLogLevel {
  return env === 'production' ? 'info' : 'debug';
}

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: 99 };

/** Whether a logger set at its level writes lines of `level` (an unknown level: it may, as before). */
function writes(log: FastifyBaseLogger, level: RequestLogLevel): boolean {
  const threshold = LEVELS[log.level];
  return threshold === undefined || (LEVELS[level] ?? 0) >= threshold;
}

/** Fastify's own request lines, through its public LogController, at the level given. */
export class RequestLogController extends LogController {
  readonly level: RequestLogLevel;

  constructor(level: RequestLogLevel) {
    super();
    this.level = level;
  }

  override incomingRequest(request: FastifyRequest, _reply: FastifyReply): void {
    // Under LOG_LEVEL=warn (production's usual) the line is never written: nothing of it is built.
    if (this.isLogDisabled(request) || !writes(request.log, this.level)) return;
    request.log[this.level]({ req: withoutQuery(request) }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    if (this.isLogDisabled(request) || !writes(reply.log, this.level)) return;
    reply.log[this.level]({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * The request as Fastify's `req` serializer reads it, its URL without the query string: a search of
 * Registros (`?q=María Pérez`), a phone or an SMS code would otherwise stay in the log store for good
 * (decision 093). The path carries ids and slugs only.
 */
export function withoutQuery(request: FastifyRequest) {
  return {
    method: request.method,
    url: pathOf(request.url),
    headers: request.headers,
    host: request.host,
    ip: request.ip,
    socket: request.socket,
  };
}

/** A URL's path, without what follows `?`. */
export function pathOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at);
}
