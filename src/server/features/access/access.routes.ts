import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const accessRoutes: FastifyPluginAsyncZod = async () => {};
