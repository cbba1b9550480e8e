import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/**
 * Where the Firebase Auth SDK sends its requests from the browser: Google's sign-in and token services,
 * or only the emulator when one is configured (tests and local trials).
 */
function firebaseOrigins(config: Config): string[] {
  if (config.auth.provider !== 'firebase') return [];
  if (config.auth.emulatorUrl) return [new URL(config.auth.emulatorUrl).origin];
  return ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com'];
}

/** Security headers with a strict Content-Security-Policy: scripts only from our own origin. */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const https = config.publicOrigin?.startsWith('https://') ?? false;
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Toasts and Headless UI set style attributes at run time; scripts stay locked down.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Notas show images from their WordPress site, or linked by URL in the editor (https only).
        imgSrc: [
          "'self'",
          'data:',
          'blob:',
          ...(config.notas.source === 'wordpress' ? [new URL(config.notas.url).origin] : ['https:']),
        ],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...firebaseOrigins(config)],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: https ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
  });
}
