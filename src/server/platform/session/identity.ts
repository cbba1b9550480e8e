import type { Role } from '#shared/platform/session';

/** Who is signed in, as every request and service sees them. */
export interface SessionUser {
  id: number;
  email: string;
  role: Role;
  /** Signed in with a one-time password an admin generated: may only change it (decision 040). */
  mustChangePassword?: boolean;
}

export interface RequestContext {
  ip: string | null;
  userAgent?: string | null;
}

/** Who makes a change that is audited: a signed-in e-mail or 'cli:<os user>'. */
export interface Actor extends RequestContext {
  email: string | null;
}
