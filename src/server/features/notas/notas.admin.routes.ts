import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const notasAdminRoutes: FastifyPluginAsyncZod = async () => {};
