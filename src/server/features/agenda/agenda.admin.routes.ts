import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const agendaAdminRoutes: FastifyPluginAsyncZod = async () => {};
