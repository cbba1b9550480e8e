import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accessVersionOf, sendSerialized } from '#server/platform/cache/cache';
import { HttpError } from '#server/platform/http/errors';
import { CSV_BOM, csvDateTime, csvLine, csvLines, csvPercent, csvZoneLabel } from '#server/platform/lib/csv';
import { actorOf } from '#server/platform/session/identity';
import { readSessionToken, sessionUserNow } from '#server/platform/session/session.plugin';
import {
  breakdownSchema,
  csvFileSchema,
  resultsMessages,
  resultsSchema,
  resultsStreamSchema,
  timelineSchema,
} from '#shared/features/results/results';
import { apiErrorSchema } from '#shared/platform/errors';
import { dateInTimeZone } from '#shared/platform/format';
import { createLiveResults } from './results.live';
import { createResultsRepository } from './results.repository';
import {
  createBreakdownReader,
  createResultsAnswer,
  createResultsReader,
  createTimelineReader,
  recordDownload,
  requireResultsAccess,
} from './results.service';

const errors = { 401: apiErrorSchema, 404: apiErrorSchema };
const streamErrors = { ...errors, 406: apiErrorSchema, 503: apiErrorSchema };
const PHOTO_NAMES = { gobernador: 'Gobernador', an: 'AN', clez: 'CLEZ' } as const;
const EXPORT_PAGE = 5_000;

function attachment(reply: FastifyReply, name: string): FastifyReply {
  return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}"`);
}

export const resultsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const repo = createResultsRepository(db);
  const read = createResultsReader(db, app.config.now);
  const answer = createResultsAnswer(db, app.config.now);
  const readBreakdownNow = createBreakdownReader(db, app.config.now);
  const readTimelineNow = createTimelineReader(db, app.config.now);
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
      const now = app.config.now();
      const breakdown = await readBreakdownNow();
      const codes = breakdown.candidates.map((c) => c.code);
      let body = CSV_BOM;
      body += csvLine([
        'Municipio',
        'Trámites',
        'Votados',
        'Validados (voto y 3 fotos)',
        '% completado',
        ...breakdown.candidates.map((c) => `Votos ${c.code} (${c.name})`),
      ]);
      body += csvLines(
        breakdown.rows.map((row) => [
          row.title,
          row.total,
          row.voted,
          row.validated,
          csvPercent(row.percentComplete),
          ...codes.map((code) => row.votes[code] ?? 0),
        ]),
      );
      await recordDownload(db, 'breakdown.csv', { rows: breakdown.rows.length }, actorOf(request, user), now);
      return attachment(reply, `avance-por-municipio-${dateInTimeZone(now)}.csv`).send(body);
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
      const now = app.config.now();
      // Names of people and how they voted: who took them, and how many (decision 081).
      const rows = await repo.votedRecordsCount();
      await recordDownload(db, 'validated.csv', { rows, personalData: ['nombre'] }, actorOf(request, user), now);
      // Written page by page as the client reads: half a million rows never sit in memory at once.
      async function* lines(): AsyncGenerator<string> {
        yield CSV_BOM +
          csvLine([
            'ID',
            'Municipio',
            'Comunidad',
            'UBCH',
            'Persona',
            'Candidatos',
            'Fotos presentes',
            'Completo (voto y 3 fotos)',
            'Validado por',
            `Validado el (${csvZoneLabel(now)})`,
          ]);
        let after = 0;
        for (;;) {
          const page = await repo.votedRecordsPage(after, EXPORT_PAGE);
          if (page.length === 0) return;
          yield csvLines(
            page.map((r) => {
              const photos = (['gobernador', 'an', 'clez'] as const)
                .filter((k) => r[k] === 1)
                .map((k) => PHOTO_NAMES[k]);
              return [
                r.id,
                r.department,
                r.comunidad,
                r.ubch,
                r.nombre,
                r.vote_codes ? r.vote_codes.split(',').join(', ') : 'Ninguno',
                photos.length > 0 ? photos.join(', ') : 'Ninguna',
                r.completed === 1 ? 'Sí' : 'No',
                r.voted_by,
                csvDateTime(r.voted_at),
              ];
            }),
          );
          after = page.at(-1)?.id ?? after;
          if (page.length < EXPORT_PAGE) return;
        }
      }
      const stream = Readable.from(lines());
      stream.on('error', (error) => request.log.error({ err: error }, 'validated records export failed'));
      // A stream is sent as is; the schema above documents what it carries.
      return attachment(reply, `tramites-validados-${dateInTimeZone(now)}.csv`).send(stream as unknown as string);
    },
  );
};
