import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const resultsRoutes: FastifyPluginAsyncZod = async () => {};
