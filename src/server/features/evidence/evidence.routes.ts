import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attachment } from '#server/platform/export/csv-export';
import { actorOf } from '#server/platform/session/identity';
import { chainStateSchema, evidenceQuerySchema, evidenceZipSchema } from '#shared/features/evidence/evidence';
import { apiErrorSchema } from '#shared/platform/errors';
import { fileTimeStamp } from '#shared/platform/format';
import type { EvidenceService } from './evidence.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 503: apiErrorSchema };

/**
 * The audit chain's state and check, and the evidence package, for admins (docs/decisions/073, 074;
 * admin.routes.ts guards the prefix). The signing key is loaded (or made) when the app starts, and named
 * in the audit log when it is new (compose.ts).
 */
export const adminEvidenceRoutes: FastifyPluginAsyncZod<{ evidence: EvidenceService }> = async (app, { evidence }) => {
  app.get(
    '/api/admin/evidence/chain',
    {
      schema: {
        tags: ['administración'],
        summary: 'Estado de la cadena de auditoría: su último registro, la última verificación y la huella de la clave',
        response: { 200: chainStateSchema, ...errors },
      },
    },
    async () => evidence.chainState(),
  );

  app.post(
    '/api/admin/evidence/chain/check',
    {
      schema: {
        tags: ['administración'],
        summary: 'Verifica la cadena de auditoría contra los votos, las fotos y sus archivos (como audit:verify)',
        response: { 200: chainStateSchema, ...errors },
      },
    },
    async (request) => evidence.checkChain(actorOf(request)),
  );

  app.get(
    '/api/admin/evidence/package.zip',
    {
      schema: {
        tags: ['administración'],
        summary:
          'Paquete de evidencias de un municipio o de todos: ZIP con registros, votos, fotos, filas de auditoría, SHA256SUMS firmado y la clave pública (queda en el registro de auditoría)',
        querystring: evidenceQuerySchema,
        response: {
          200: { description: 'Archivo ZIP', content: { 'application/zip': { schema: evidenceZipSchema } } },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const department = request.query.department;
      const { stream, done, at } = await evidence.exportPackage(department, actorOf(request));
      done.then(
        (summary) => request.log.info({ evidence: summary }, 'evidence package written'),
        (error: unknown) => request.log.error({ err: error }, 'evidence package failed'),
      );
      // Named in Caracas time, as every other download: the hour on the name is the one on people's clocks.
      const name = `evidencias-${department ?? 'todos'}-${fileTimeStamp(at)}.zip`;
      return attachment(reply, name, 'application/zip').send(stream as unknown as string);
    },
  );
};
