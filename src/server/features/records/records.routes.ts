import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const recordsRoutes: FastifyPluginAsyncZod = async () => {};
