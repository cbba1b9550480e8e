import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireDepartmentAccess } from '#server/platform/access/access.service';
import { actorOf } from '#server/platform/session/identity';
import { requireAdmin, requireUser } from '#server/platform/session/session.plugin';
import { createPhotoStorage } from '#server/platform/storage/create-photo-storage';
import {
  closeResultsSchema,
  drillAccountsBodySchema,
  drillAccountsResultSchema,
  drillEndBodySchema,
  drillEndResultSchema,
  electionAdminSchema,
  electionCloseBodySchema,
  electionPhaseBodySchema,
  electionStatusSchema,
} from '#shared/features/election/election';
import { apiErrorSchema } from '#shared/platform/errors';
import { createDrillAccounts } from './drill-accounts';
import { createElectionService } from './election.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/** The day's phase as the staff pages read it (the SIMULACRO band, the close on Resultados). */
export const electionRoutes: FastifyPluginAsyncZod = async (app) => {
  const election = createElectionService(app.db.kysely, app.config.now);

  app.get(
    '/api/election',
    {
      schema: {
        tags: ['jornada'],
        summary: 'Fase de la jornada, hora de cierre y llegadas después del cierre',
        response: { 200: electionStatusSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      requireUser(request);
      return election.status();
    },
  );
};

/** The Resultados staff page: its allow-list opens the close's counts as it opens the live ones. */
const RESULTS_PAGE = 'resultados';

/** 'Resultados al cierre': for whoever may open Resultados. */
export const closeResultsRoutes: FastifyPluginAsyncZod = async (app) => {
  const election = createElectionService(app.db.kysely, app.config.now);
  app.get(
    '/api/election/close-results',
    {
      schema: {
        tags: ['jornada'],
        summary: 'Resultados al cierre: los conteos guardados al cerrar, y aparte cuántos llegaron después',
        response: { 200: closeResultsSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      await requireDepartmentAccess(app.db.kysely, request.user, RESULTS_PAGE);
      return election.closeResults();
    },
  );
};

/** The back office's Jornada section: for admins (admin.routes.ts guards the prefix). */
export const adminElectionRoutes: FastifyPluginAsyncZod = async (app) => {
  const election = createElectionService(app.db.kysely, app.config.now, {
    timestampUrl: app.config.evidence?.timestampUrl,
    storage: createPhotoStorage(app.config),
    onFileLeft: (key, error) => app.log.warn({ err: error, key }, 'a drill photo file could not be deleted'),
  });

  app.get(
    '/api/admin/election',
    {
      schema: {
        tags: ['jornada'],
        summary: 'Jornada: fase, último cambio con su motivo, cierre, gracia y llegadas tardías',
        response: { 200: electionAdminSchema, ...errors },
      },
    },
    async (request) => {
      requireAdmin(request);
      return election.admin();
    },
  );

  app.put(
    '/api/admin/election/phase',
    {
      schema: {
        tags: ['jornada'],
        summary: 'Cambia la fase de la jornada (con motivo; queda en la auditoría)',
        body: electionPhaseBodySchema,
        response: { 200: electionStatusSchema, ...errors },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      return election.setPhase(request.body, actorOf(request, admin));
    },
  );

  app.put(
    '/api/admin/election/close',
    {
      schema: {
        tags: ['jornada'],
        summary: 'Fija la hora de cierre (hora de Caracas) y las horas de gracia (con motivo)',
        body: electionCloseBodySchema,
        response: { 200: electionStatusSchema, ...errors },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      return election.scheduleClose(request.body, actorOf(request, admin));
    },
  );

  const drillAccounts = createDrillAccounts(app.db.kysely, app.config.now);
  app.post(
    '/api/admin/election/drill/accounts',
    {
      schema: {
        tags: ['jornada'],
        summary:
          'Cuentas de ensayo para el simulacro (una contraseña para todas, mostrada una vez); ' +
          '«Terminar simulacro» las borra con todo lo suyo',
        body: drillAccountsBodySchema,
        response: { 200: drillAccountsResultSchema, ...errors },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      return drillAccounts.create(request.body, actorOf(request, admin));
    },
  );

  app.post(
    '/api/admin/election/drill/end',
    {
      schema: {
        tags: ['jornada'],
        summary:
          'Terminar simulacro: borra sus votos y fotos (archivos incluidos), devuelve registros y contadores a como ' +
          'estaban y pasa a Preparación; se confirma con los números mostrados',
        body: drillEndBodySchema,
        response: { 200: drillEndResultSchema, ...errors },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      return election.endDrill(request.body, actorOf(request, admin));
    },
  );
};
