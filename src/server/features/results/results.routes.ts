import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accessVersionOf, sendSerialized } from '#server/platform/cache/cache';
import { sendExport } from '#server/platform/export/csv-export';
import { HttpError } from '#server/platform/http/errors';
import { actorOf } from '#server/platform/session/identity';
import { readSessionToken, sessionUserNow } from '#server/platform/session/session.plugin';
import {
  type Breakdown,
  breakdownSchema,
  csvFileSchema,
  type Results,
  resultsMessages,
  resultsSchema,
  resultsStreamSchema,
  type Timeline,
  timelineSchema,
} from '#shared/features/results/results';
import { apiErrorSchema } from '#shared/platform/errors';
import { createLiveResults } from './results.live';
import { requireResultsAccess } from './results.service';
import type { ResultsExports } from './results-export.service';

const errors = { 401: apiErrorSchema, 404: apiErrorSchema };
const streamErrors = { ...errors, 406: apiErrorSchema, 503: apiErrorSchema };

export interface ResultsRoutesOptions {
  results: {
    read: () => Promise<Results>;
    /** The results as JSON, written once per change and stamped with the time of each read. */
    answer: () => Promise<string>;
    readBreakdown: () => Promise<Breakdown>;
    readTimeline: () => Promise<Timeline>;
    exports: ResultsExports;
  };
}

export const resultsRoutes: FastifyPluginAsyncZod<ResultsRoutesOptions> = async (app, { results }) => {
  const db = app.db.kysely;
  const { read, answer, readBreakdown: readBreakdownNow, readTimeline: readTimelineNow } = results;
  const live = createLiveResults({
    read,
    // The map's and the timeline's figures ride on the stream: read once per change for every screen.
    views: { breakdown: readBreakdownNow, timeline: readTimelineNow },
    source:
      app.db.dialect === 'postgres' && app.config.databaseUrl
        ? { kind: 'postgres', connectionString: app.config.databaseUrl }
        : { kind: 'poll' },
    log: app.log,
    accessVersion: accessVersionOf(db),
  });
  // Open streams would hold the server open: end them before it waits for requests to finish.
  app.addHook('preClose', async () => live.close());
  app.metrics.gauge({
    name: 'comando_live_streams',
    help: 'Transmisiones en vivo de resultados abiertas',
    read: () => live.size,
  });

  app.get(
    '/api/results',
    {
      schema: {
        tags: ['resultados'],
        summary: 'Votos y porcentaje de cada candidato (sobre el denominador fijo), leídos de los contadores',
        response: { 200: resultsSchema, ...errors },
      },
    },
    async (request, reply) => {
      await requireResultsAccess(db, request.user);
      return sendSerialized(reply, await answer());
    },
  );

  app.get(
    '/api/results/stream',
    {
      schema: {
        tags: ['resultados'],
        summary:
          'Resultados en vivo (server-sent events): los totales al conectar y en menos de un segundo tras cada voto',
        response: {
          200: { description: 'Flujo de eventos', content: { 'text/event-stream': { schema: resultsStreamSchema } } },
          ...streamErrors,
        },
      },
    },
    async (request, reply) => {
      const user = await requireResultsAccess(db, request.user);
      // Only a client that can hold a stream open gets one (EventSource always asks for it).
      if (!request.headers.accept?.includes('text/event-stream')) throw new HttpError(406, resultsMessages.streamOnly);
      // The stream outlives this request: it ends once its session does or its person loses access.
      const token = readSessionToken(request);
      await live.open(reply, {
        key: `${user.id} ${token ?? ''}`,
        async allowed() {
          const now = await sessionUserNow(app, token);
          if (now?.id !== user.id) return false;
          return requireResultsAccess(db, now).then(
            () => true,
            (error: unknown) => {
              if (error instanceof HttpError && error.statusCode < 500) return false;
              throw error;
            },
          );
        },
      });
      return reply;
    },
  );

  app.get(
    '/api/results/breakdown',
    {
      schema: {
        tags: ['resultados'],
        summary: 'Avance por municipio: trámites, votados, validados, porcentaje completado y votos por candidato',
        response: { 200: breakdownSchema, ...errors },
      },
    },
    async (request) => {
      await requireResultsAccess(db, request.user);
      return readBreakdownNow();
    },
  );

  app.get(
    '/api/results/timeline',
    {
      schema: {
        tags: ['resultados'],
        summary:
          'Votos del día por cuarto de hora y total acumulado de cada candidato frente al denominador (hora de Caracas)',
        response: { 200: timelineSchema, ...errors },
      },
    },
    async (request) => {
      await requireResultsAccess(db, request.user);
      return readTimelineNow();
    },
  );

  app.get(
    '/api/results/breakdown.csv',
    {
      schema: {
        tags: ['resultados'],
        summary: 'El avance por municipio como CSV para Excel (queda en el registro de auditoría)',
        response: {
          200: { description: 'Archivo CSV', content: { 'text/csv': { schema: csvFileSchema } } },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const user = await requireResultsAccess(db, request.user);
      return sendExport(request, reply, await results.exports.breakdownCsv(actorOf(request, user)));
    },
  );

  app.get(
    '/api/results/validated.csv',
    {
      schema: {
        tags: ['resultados'],
        summary:
          'Trámites votados como CSV para Excel: persona, municipio, candidatos, fotos presentes, quién y cuándo (queda en el registro de auditoría)',
        response: {
          200: { description: 'Archivo CSV', content: { 'text/csv': { schema: csvFileSchema } } },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const user = await requireResultsAccess(db, request.user);
      return sendExport(request, reply, await results.exports.validatedCsv(actorOf(request, user)));
    },
  );
};
