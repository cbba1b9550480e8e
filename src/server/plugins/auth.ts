import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The signed-in person as every route sees it. Contract shared by all features:
 * - `request.user` is set (or null) before any handler runs;
 * - `requireUser(request)` returns the user or throws 401;
 * - `requireAdmin(request)` returns an admin or throws the same 404 as an unknown resource.
 */
export interface SessionUser {
  id: number;
  email: string;
  role: 'admin' | 'staff';
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

export async function registerAuth(app: FastifyInstance): Promise<void> {
  app.decorateRequest('user', null);
}

export function requireUser(_request: FastifyRequest): SessionUser {
  throw new Error('auth not wired yet');
}

export function requireAdmin(_request: FastifyRequest): SessionUser {
  throw new Error('auth not wired yet');
}
