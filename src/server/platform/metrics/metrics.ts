import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '#server/platform/db/database';
import { HttpError, NotFound } from '#server/platform/http/errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** What `/metrics` tells Prometheus: see docs/decisions/075. */
    metrics: Metrics;
  }
}

export const METRICS_PATH = '/metrics';

/** Only Prometheus reads it, so it never travels to the browser with the shared messages. */
const METRICS_TOKEN_MESSAGE = 'Las métricas piden el token de METRICS_TOKEN (cabecera Authorization: Bearer …).';

/** A value read when Prometheus scrapes: one number, or one per label value (a department). */
type Reading = number | { label: string; value: number }[];

export interface GaugeOptions {
  /** Prometheus name, `comando_` first, unit last (`_seconds`, `_total`...). */
  name: string;
  help: string;
  /** The label a list of readings carries (for example `department`). */
  label?: string;
  read: () => Reading | Promise<Reading>;
}

export interface Metrics {
  /** A vote written in its transaction (an admin's correction is not counted). */
  voteStored(): void;
  /** A ballot photo written in its transaction. */
  photoStored(kind: string): void;
  /** A value a feature owns (open live streams, items waiting on phones), read at each scrape. */
  gauge(options: GaugeOptions): void;
  /** The Prometheus text: this app's metrics and the process' (event loop, memory, GC). */
  text(): Promise<string>;
  contentType: string;
}

/**
 * The process' own metrics (event-loop delay through perf_hooks, memory, GC, handles), registered once
 * per process: several apps in one test process share them, as they share the process.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 10 });
  }
  return processRegistry;
}

/** Why a request was refused, by its status: one short name per answer the app gives. */
const REFUSAL_REASONS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  410: 'gone',
  413: 'too_large',
  415: 'unsupported_type',
  422: 'unprocessable',
  423: 'locked',
  429: 'rate_limited',
  503: 'unavailable',
  507: 'disk_full',
};

export function refusalReason(status: number): string | undefined {
  if (REFUSAL_REASONS[status]) return REFUSAL_REASONS[status];
  return status >= 400 && status < 500 ? 'other_4xx' : undefined;
}

export function createMetrics(db: Pick<Db, 'poolStats'>): Metrics & {
  observeRequest(request: FastifyRequest, reply: FastifyReply): void;
} {
  const registry = new Registry();
  const requests = new Counter({
    name: 'comando_http_requests_total',
    help: 'Solicitudes HTTP respondidas, por método, ruta y estado',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'comando_http_request_duration_seconds',
    help: 'Duración de las solicitudes HTTP por método, ruta y estado',
    labelNames: ['method', 'route', 'status_code'] as const,
    // From a cached read (a few ms) to a slow photo upload on a bad network.
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'comando_refusals_total',
    help: 'Solicitudes rechazadas por motivo (según el estado de la respuesta) y ruta',
    labelNames: ['reason', 'route'] as const,
    registers: [registry],
  });
  const votes = new Counter({
    name: 'comando_votes_stored_total',
    help: 'Votos guardados (sin contar correcciones ni reintentos con la misma Idempotency-Key)',
    registers: [registry],
  });
  const photos = new Counter({
    name: 'comando_photos_stored_total',
    help: 'Fotos de boletas guardadas, por tipo de boleta',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  if (db.poolStats) {
    const stats = db.poolStats;
    new Gauge({
      name: 'comando_db_pool_connections',
      help: 'Conexiones del pool de PostgreSQL: total abiertas, libres y solicitudes esperando una',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const s = stats();
        this.set({ state: 'total' }, s.total);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'waiting' }, s.waiting);
      },
    });
  }

  return {
    contentType: registry.contentType,
    voteStored: () => votes.inc(),
    photoStored: (kind) => photos.inc({ kind }),
    gauge({ name, help, label, read }) {
      new Gauge({
        name,
        help,
        labelNames: label ? [label] : [],
        registers: [registry],
        async collect() {
          const reading = await read();
          if (typeof reading === 'number') {
            this.set(reading);
            return;
          }
          // Labels not read this time (a department with nothing waiting any more) go away.
          this.reset();
          for (const r of reading) this.set({ [label ?? 'label']: r.label }, r.value);
        },
      });
    },
    async text() {
      return `${await registry.metrics()}\n${await processMetrics().metrics()}`;
    },
    observeRequest(request, reply) {
      const route = request.routeOptions.url ?? 'unmatched';
      const status = reply.statusCode;
      const labels = { method: request.method, route, status_code: String(status) };
      requests.inc(labels);
      durations.observe(labels, reply.elapsedTime / 1000);
      const reason = refusalReason(status);
      if (reason) refusals.inc({ reason, route });
    },
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Counts every answer (its route, status and time, and why it was refused) and serves `/metrics` to
 * whoever brings `Authorization: Bearer <METRICS_TOKEN>`. Without METRICS_TOKEN `/metrics` does not
 * exist for anyone (404): the numbers say how the election goes, so they never reach the public.
 */
export function registerMetrics(app: FastifyInstance, db: Pick<Db, 'poolStats'>, token: string | undefined): void {
  const metrics = createMetrics(db);
  app.decorate('metrics', metrics);
  // Runs after every answer, errors and answers written outside Fastify's reply included: a plain
  // callback costs less than an async hook.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request, reply);
    done();
  });

  const expected = token ? digest(token) : undefined;
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    // The one spelling Prometheus is given: /metrics/ (the router ignores a trailing slash) or an
    // encoded letter is another path, which the proxies may not know to refuse (decision 092).
    if (!expected || request.url.split('?')[0] !== METRICS_PATH) throw NotFound();
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    // Compared as digests of equal length, in constant time.
    if (!given || !timingSafeEqual(digest(given), expected)) {
      throw new HttpError(401, METRICS_TOKEN_MESSAGE, { 'www-authenticate': 'Bearer realm="metrics"' });
    }
    return reply.type(metrics.contentType).send(await metrics.text());
  });
}
