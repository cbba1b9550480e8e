import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * The random tokens our cookies carry (sessions, trusted browsers): 32 bytes, base64url. The database
 * keeps only their sha256; a cookie of any other shape is not looked up at all.
 */
export const newToken = () => crypto.randomBytes(32).toString('base64url');
// One call instead of createHash/update/digest: the session's runs on every signed-in request.
export const hashToken = (token: string) => crypto.hash('sha256', token, 'hex');
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
export const isTokenShaped = (token: string | undefined): token is string =>
  token !== undefined && TOKEN_SHAPE.test(token);

export function isHttps(app: FastifyInstance): boolean {
  return app.config.publicOrigin?.startsWith('https://') ?? false;
}

/** A cookie's name; over HTTPS the __Host- prefix pins it to this exact origin. */
export const hostCookieName = (app: FastifyInstance, name: string) => (isHttps(app) ? `__Host-${name}` : name);
