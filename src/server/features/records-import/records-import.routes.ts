import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedUser, requireAdmin } from '#server/platform/access/guards';
import { sendExport } from '#server/platform/export/csv-export';
import { BadRequest, HttpError } from '#server/platform/http/errors';
import { dataRoot } from '#server/platform/storage/create-photo-storage';
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
import { messages } from '#shared/platform/messages';
import type { RecordsImportService } from './records-import.service';
import { receiveCsv, removeStaleImports } from './records-import.upload';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };
const NDJSON = 'application/x-ndjson';
/** Progress lines at most this often (the last one of each phase always goes). */
const PROGRESS_EVERY_MS = 200;

/** The admin this plugin's onRequest guard let through, as the audit log names them. */
const actorOf = (request: FastifyRequest) => ({ email: guardedUser(request).email, ip: request.ip });

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
 * The records' CSV import (dry run first) and export under /api/admin/records, for admins only.
 */
export const recordsImportRoutes: FastifyPluginAsyncZod<{ recordsImport: RecordsImportService }> = async (
  app,
  { recordsImport: records },
) => {
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
      const defaultDepartment = department ? await records.requireMunicipality(department) : undefined;
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
        const options = { received, fileName, mode, omitInvalid, defaultDepartment, actor };
        if (!request.headers.accept?.includes(NDJSON)) {
          const outcome = await records.importCsv(options);
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
          const outcome = await records.importCsv({ ...options, onProgress });
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
      const { department, status } = request.query;
      return sendExport(request, reply, await records.exportCsv(department, status, actorOf(request)));
    },
  );
};
