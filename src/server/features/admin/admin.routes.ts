import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const adminRoutes: FastifyPluginAsyncZod = async () => {};
