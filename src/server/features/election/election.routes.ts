import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type AccessGuards, requireUser } from '#server/platform/access/guards';
import { actorOf } from '#server/platform/session/identity';
import {
  closeResultsSchema,
  copyStateSchema,
  drillAccountsBodySchema,
  drillAccountsResultSchema,
  drillEndBodySchema,
  drillEndResultSchema,
  electionAdminSchema,
  electionCloseBodySchema,
  electionPhaseBodySchema,
  electionStatusSchema,
  itemsAskedSchema,
  itemsHeldSchema,
  outstandingSchema,
} from '#shared/features/election/election';
import { apiErrorSchema } from '#shared/platform/errors';
import type { DrillAccounts } from './drill-accounts';
import type { ElectionService } from './election.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/** The day's phase as the staff pages read it (the SIMULACRO band, the close on Resultados). */
export const electionRoutes: FastifyPluginAsyncZod<{ election: ElectionService }> = async (app, { election }) => {
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

  app.post(
    '/api/election/items',
    {
      schema: {
        tags: ['jornada'],
        summary:
          'Un teléfono pregunta por sus envíos por clave: cuáles tiene el servidor y cuáles están ya en la copia ' +
          'fuera de la máquina (Asegurado), con la época de la base de datos',
        body: itemsAskedSchema,
        response: { 200: itemsHeldSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => election.itemsHeld(requireUser(request), request.body),
  );

  app.get(
    '/api/election/outstanding',
    {
      schema: {
        tags: ['jornada'],
        summary:
          'Por llegar: tras el cierre, lo que los teléfonos avisaron antes de él y aún no llegó, por municipio y ' +
          'validador, y hasta cuándo se acepta (admins: todo; los demás: sus listas, como Campo)',
        response: { 200: outstandingSchema, 401: apiErrorSchema },
      },
    },
    async (request) => election.outstanding(requireUser(request)),
  );
};

/** The Resultados staff page: its allow-list opens the close's counts as it opens the live ones. */
const RESULTS_PAGE = 'resultados';

/** 'Resultados al cierre': for whoever may open Resultados. */
export const closeResultsRoutes: FastifyPluginAsyncZod<{ election: ElectionService; guards: AccessGuards }> = async (
  app,
  { election, guards },
) => {
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
      await guards.department(request.user, RESULTS_PAGE);
      return election.closeResults();
    },
  );
};

/** The back office's Jornada section: for admins (admin.routes.ts guards the prefix). */
export const adminElectionRoutes: FastifyPluginAsyncZod<{
  election: ElectionService;
  drillAccounts: DrillAccounts;
}> = async (app, { election, drillAccounts }) => {
  app.get(
    '/api/admin/election',
    {
      schema: {
        tags: ['jornada'],
        summary: 'Jornada: fase, último cambio con su motivo, cierre, gracia y llegadas tardías',
        response: { 200: electionAdminSchema, ...errors },
      },
    },
    async () => election.admin(),
  );

  app.get(
    '/api/admin/election/copy',
    {
      schema: {
        tags: ['jornada'],
        summary:
          'La copia fuera de la máquina: Litestream, un PostgreSQL en espera o la última copia de seguridad, y cuánto va por detrás',
        response: { 200: copyStateSchema, ...errors },
      },
    },
    async () => app.copyWatch.state(),
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
    async (request) => election.setPhase(request.body, actorOf(request)),
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
    async (request) => election.scheduleClose(request.body, actorOf(request)),
  );

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
    async (request) => drillAccounts.create(request.body, actorOf(request)),
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
    async (request) => election.endDrill(request.body, actorOf(request)),
  );
};
