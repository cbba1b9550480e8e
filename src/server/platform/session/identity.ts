import type { FastifyRequest } from 'fastify';
import type { Role } from '#shared/platform/session';

/** Who is signed in, as every request and service sees them. */
export interface SessionUser {
  id: number;
  email: string;
  role: Role;
  /** Signed in with a one-time password an admin generated: may only change it (decision 040). */
  mustChangePassword?: boolean;
  /**
   * The second factor this session still owes (decision 080): 'verify' a code, or 'enrol' one first (an
   * admin while the setting requires it). Until then the session opens nothing else.
   */
  secondFactor?: 'verify' | 'enrol' | null;
}

export interface RequestContext {
  ip: string | null;
  userAgent?: string | null;
}

/** Who makes a change that is audited: a signed-in e-mail or 'cli:<os user>'. */
export interface Actor extends RequestContext {
  email: string | null;
}

/**
 * Who makes a change through this request: `user` (the person a guard answered) or else the request's
 * signed-in person, at the request's address. The one way routes name the actor they give a use case.
 */
export function actorOf(request: FastifyRequest, user?: { email: string } | null): Actor {
  return { email: (user ?? request.user)?.email ?? null, ip: request.ip };
}
