import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const recordsAdminRoutes: FastifyPluginAsyncZod = async () => {};
