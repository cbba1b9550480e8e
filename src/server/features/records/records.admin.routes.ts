import path from 'node:path';
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { BadRequest, HttpError } from '#server/platform/http/errors';
import { CSV_BOM, csvDateTime, csvLine, csvLines, csvZoneLabel } from '#server/platform/lib/csv';
import { requireAdmin } from '#server/platform/session/session.plugin';
import { dataRoot } from '#server/platform/storage/create-photo-storage';
import {
  correctVoteBodySchema,
  recordAdminParamsSchema,
  recordBodySchema,
  recordResultSchema,
  recordsAdminMessages,
  recordsAdminPageSchema,
  recordsAdminQuerySchema,
  recordsDepartmentsSchema,
  restoreRecordBodySchema,
  voidRecordBodySchema,
  voteCorrectionConflictSchema,
} from '#shared/features/records-admin/records-admin';
import {
  IMPORT_MAX_BYTES,
  type ImportEvent,
  type ImportPhase,
  importEventSchema,
  importQuerySchema,
  importResultSchema,
  recordsCsvSchema,
  recordsExportQuerySchema,
  recordsImportMessages,
} from '#shared/features/records-import/records-import';
import { apiErrorSchema } from '#shared/platform/errors';
import { dateInTimeZone } from '#shared/platform/format';
import { messages } from '#shared/platform/messages';
import { importRecords } from './records.import';
import { receiveCsv, removeStaleImports } from './records.import-upload';
import { searchPattern } from './records.search';
import { createRecordsAdminRepository } from './records-admin.repository';
import { createRecordsAdminService, presentRecordAdmin, requireMunicipality } from './records-admin.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };
const EXPORT_PAGE = 2_000;
const NDJSON = 'application/x-ndjson';
/** Progress lines at most this often (the last one of each phase always goes). */
const PROGRESS_EVERY_MS = 200;

const actorOf = (request: FastifyRequest) => ({ email: requireAdmin(request).email, ip: request.ip });

/** The sent file's own name, without any folder, for the report and the audit log. */
const fileNameOf = (name: string | undefined) =>
  path.basename((name ?? '').replace(/\\/g, '/')).slice(0, 200) || 'archivo.csv';

/**
 * Takes over the reply to send one JSON object per line as the work goes; the headers other hooks set
 * (security headers) go out too.
 */
function openEventStream(reply: FastifyReply): (event: ImportEvent) => void {
  reply.hijack();
  const res = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) res.setHeader(name, value);
  }
  res.writeHead(200, {
    'content-type': `${NDJSON}; charset=utf-8`,
    // Proxies (nginx) must pass each line on as it comes.
    'x-accel-buffering': 'no',
  });
  return (event) => {
    if (!res.writableEnded) res.write(`${JSON.stringify(event)}\n`);
  };
}

/**
 * The records back office under /api/admin/records, for admins only: list, add, edit and void records,
 * import a CSV (dry run first) and export a department's records as CSV.
 */
export const recordsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const repo = createRecordsAdminRepository(db);
  const service = createRecordsAdminService(db, app.config.now, app.recordHooks);
  const tempDir = path.join(dataRoot(app.config.dataDir), 'imports');
  await removeStaleImports(tempDir);

  // Before any body is read: a visitor gets 401 and anyone but an admin the unknown-resource 404.
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });
  // Only this plugin's import route reads multipart bodies here; one file per request.
  await app.register(multipart, {
    limits: { files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 50 },
    throwFileSizeLimit: false,
  });

  app.get(
    '/api/admin/records/departments',
    {
      schema: {
        tags: ['registros'],
        summary: 'Municipios y parroquias con sus registros pendientes, votados, validados y anulados',
        response: { 200: recordsDepartmentsSchema, ...errors },
      },
    },
    async () => {
      const rows = await repo.municipalityCounts();
      return { items: rows.map(({ id: _id, ...row }) => row) };
    },
  );

  app.get(
    '/api/admin/records',
    {
      schema: {
        tags: ['registros'],
        summary:
          'Registros de un municipio, o de todos sin department (cada uno con su municipio), sin anular, anulados o todos, ' +
          'con búsqueda por nombre, teléfono, comunidad o UBCH, de 50 en 50',
        querystring: recordsAdminQuerySchema,
        response: { 200: recordsAdminPageSchema, ...errors },
      },
    },
    async (request) => {
      const { department, q, status, after, limit } = request.query;
      const found = department === undefined ? undefined : await requireMunicipality(repo, department);
      const page = await repo.listPage(found?.id, { status, pattern: searchPattern(q), after, limit });
      return { items: page.rows.map(presentRecordAdmin), nextCursor: page.nextCursor };
    },
  );

  app.post(
    '/api/admin/records',
    {
      schema: {
        tags: ['registros'],
        summary: 'Agrega un registro a mano (no puede repetir nombre y teléfono en el mismo municipio)',
        body: recordBodySchema,
        response: { 201: recordResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const record = await service.create(request.body, actorOf(request));
      return reply.code(201).send({ message: recordsAdminMessages.created, record });
    },
  );

  app.put(
    '/api/admin/records/:id',
    {
      schema: {
        tags: ['registros'],
        summary: 'Corrige un registro pendiente (un registro sin voto también puede cambiar de municipio)',
        params: recordAdminParamsSchema,
        body: recordBodySchema,
        response: { 200: recordResultSchema, ...errors },
      },
    },
    async (request) => {
      const record = await service.update(request.params.id, request.body, actorOf(request));
      return { message: recordsAdminMessages.updated, record };
    },
  );

  app.post(
    '/api/admin/records/:id/void',
    {
      schema: {
        tags: ['registros'],
        summary:
          'Anula un registro con un motivo: sale de las listas y del avance; queda en la base y en el registro de auditoría. ' +
          'Su voto, si lo tiene, deja de contar en los resultados salvo voteCounts: true',
        params: recordAdminParamsSchema,
        body: voidRecordBodySchema,
        response: { 200: recordResultSchema, ...errors },
      },
    },
    async (request) => {
      const record = await service.void(request.params.id, request.body, actorOf(request));
      return { message: recordsAdminMessages.voidedOk, record };
    },
  );

  app.post(
    '/api/admin/records/:id/restore',
    {
      schema: {
        tags: ['registros'],
        summary:
          'Restaura un registro anulado: vuelve a la lista de validación y al avance, y su voto vuelve a contar como antes',
        params: recordAdminParamsSchema,
        body: restoreRecordBodySchema,
        response: { 200: recordResultSchema, ...errors },
      },
    },
    async (request) => {
      const record = await service.restore(request.params.id, request.body.reason, actorOf(request));
      return { message: recordsAdminMessages.restoredOk, record };
    },
  );

  app.put(
    '/api/admin/records/:id/vote',
    {
      schema: {
        tags: ['registros'],
        summary:
          'Corrige el voto de un registro pendiente con un motivo: otros candidatos (ninguno es un voto sin candidatos) o candidates: null para borrarlo. ' +
          'Resultados, avance y auditoría (antes y después) cambian en la misma transacción',
        params: recordAdminParamsSchema,
        body: correctVoteBodySchema,
        response: { 200: recordResultSchema, ...errors, 409: voteCorrectionConflictSchema },
      },
    },
    async (request) => {
      const { record, cleared } = await service.correctVote(
        request.params.id,
        { codes: request.body.candidates, reason: request.body.reason, voteRevision: request.body.voteRevision },
        actorOf(request),
      );
      return { message: cleared ? recordsAdminMessages.voteCleared : recordsAdminMessages.voteCorrected, record };
    },
  );

  app.post(
    '/api/admin/records/import',
    {
      schema: {
        tags: ['registros'],
        summary:
          'Importa un CSV (campo «file» en multipart/form-data) con Comunidades, Nombre, UBCH, Telefono y Departamento: ' +
          'primero la simulación (mode=simulacion), luego mode=importar aplica todas las filas nuevas en una transacción o ninguna. ' +
          `Con Accept: ${NDJSON} responde línea a línea el avance y al final el resultado.`,
        consumes: ['multipart/form-data'],
        querystring: importQuerySchema,
        response: {
          200: {
            description: 'Simulación terminada (o nada nuevo que importar)',
            content: {
              'application/json': { schema: importResultSchema },
              [NDJSON]: { schema: importEventSchema },
            },
          },
          201: importResultSchema,
          422: importResultSchema,
          413: apiErrorSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { mode, department, omitInvalid } = request.query;
      const defaultDepartment = department ? await requireMunicipality(repo, department) : undefined;
      let part: Awaited<ReturnType<typeof request.file>>;
      try {
        part = await request.file({ limits: { fileSize: IMPORT_MAX_BYTES } });
      } catch (error) {
        request.log.info({ err: error }, 'import without a readable multipart body');
        throw BadRequest(recordsImportMessages.missingFile);
      }
      if (!part) throw BadRequest(recordsImportMessages.missingFile);
      const fileName = fileNameOf(part.filename);
      const received = await receiveCsv(part.file, { tempDir, maxBytes: IMPORT_MAX_BYTES });
      try {
        const options = { db, received, fileName, mode, omitInvalid, defaultDepartment, actor, clock: app.config.now };
        if (!request.headers.accept?.includes(NDJSON)) {
          const outcome = await importRecords(options);
          return reply.code(outcome.status as 200).send(outcome.body);
        }
        const send = openEventStream(reply);
        let last: { phase: ImportPhase; at: number } | undefined;
        const onProgress = (phase: ImportPhase, done: number, total: number) => {
          const now = Date.now();
          if (last?.phase === phase && done < total && now - last.at < PROGRESS_EVERY_MS) return;
          last = { phase, at: now };
          send({ type: 'progress', phase, done, total });
        };
        try {
          const outcome = await importRecords({ ...options, onProgress });
          send({ type: 'result', status: outcome.status, body: outcome.body });
        } catch (error) {
          const known = error instanceof HttpError && error.statusCode < 500;
          if (!known) request.log.error({ err: error }, 'records import failed');
          send({
            type: 'error',
            status: known ? error.statusCode : 500,
            message: known ? error.message : messages.api.internal,
          });
        }
        reply.raw.end();
        return reply;
      } finally {
        await received.discard();
      }
    },
  );

  app.get(
    '/api/admin/records/export.csv',
    {
      schema: {
        tags: ['registros'],
        summary:
          'Los registros de un municipio como CSV para Excel, con las columnas que la importación lee (queda en el registro de auditoría)',
        querystring: recordsExportQuerySchema,
        response: {
          200: { description: 'Archivo CSV', content: { 'text/csv': { schema: recordsCsvSchema } } },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { department, status } = request.query;
      const found = await requireMunicipality(repo, department);
      const now = app.config.now();
      await writeAudit(db, {
        actorEmail: actor.email,
        action: 'records.export',
        departmentSlug: found.slug,
        target: `${found.slug}.csv`,
        ip: actor.ip,
        details: { status },
        at: now,
      });
      // Written page by page as the client reads: a big municipality never sits in memory at once.
      async function* lines(): AsyncGenerator<string> {
        yield CSV_BOM +
          csvLine([
            'Comunidades',
            'Nombre',
            'UBCH',
            'Telefono',
            'Departamento',
            'Estado',
            'Votos',
            `Votado el (${csvZoneLabel(now)})`,
            'ID',
          ]);
        for (let after = 0; ; ) {
          const page = await repo.exportPage(found.id, status, after, EXPORT_PAGE);
          const chunk = csvLines(
            page.map((r) => [
              r.comunidad,
              r.nombre,
              r.ubch,
              r.telefono,
              r.department_slug,
              r.status,
              r.voted_at === null ? '' : r.vote_codes ? r.vote_codes.split(',').join(' ') : 'Ninguno',
              csvDateTime(r.voted_at),
              r.id,
            ]),
          );
          if (chunk) yield chunk;
          if (page.length < EXPORT_PAGE) return;
          after = page.at(-1)?.id ?? after;
        }
      }
      const stream = Readable.from(lines());
      stream.on('error', (error) => request.log.error({ err: error }, 'records export failed'));
      const name = `registros-${found.slug}-${dateInTimeZone(now)}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(stream as unknown as string);
    },
  );
};
