import type { FastifyInstance } from 'fastify';
import helmet, { contentSecurityPolicy } from 'helmet';
import type { Config } from '#server/platform/config/config';

/**
 * Where the Firebase Auth SDK sends its requests from the browser: Google's sign-in and token services,
 * or only the emulator when one is configured (tests and local trials).
 */
function firebaseOrigins(config: Config): string[] {
  if (config.auth.provider !== 'firebase') return [];
  if (config.auth.emulatorUrl) return [new URL(config.auth.emulatorUrl).origin];
  return ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com'];
}

/**
 * Browser features no page of ours uses are off for them and for anything they embed. Ballot photos
 * come through a file input (the phone's own camera screen), which needs no camera permission; the
 * projector view goes full screen and the agenda copies to the clipboard. Only features Chromium knows
 * are listed: an unknown one is an error in the console of every page.
 */
export const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'display-capture=()',
  'browsing-topics=()',
  'fullscreen=(self)',
  'clipboard-write=(self)',
].join(', ');

/**
 * Security headers with a strict Content-Security-Policy: scripts only from our own origin, none inline
 * (the rendered public pages too: their own script is a file, decision 065). Helmet's
 * middleware is built once: the Fastify wrapper rebuilt it, and parsed the policy again, on every request.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: Config,
  options: {
    /**
     * Where images may come from when the notas are read from WordPress: asked as each request comes in,
     * and again for a page once it is ready.
     */
    imageOrigins?: () => readonly string[];
  } = {},
): Promise<void> {
  const { imageOrigins } = options;
  const https = config.publicOrigin?.startsWith('https://') ?? false;
  const policy = {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      // Our own files only.
      scriptSrc: ["'self'"],
      // Toasts and Headless UI set style attributes at run time; scripts stay locked down.
      styleSrc: ["'self'", "'unsafe-inline'"],
      // Notas show images from where their WordPress posts take them (the site, its CDN or media host:
      // docs/decisions/030), or linked by URL in the editor (https only).
      imgSrc: ["'self'", 'data:', 'blob:', imageOrigins ? () => imageOrigins().join(' ') : 'https:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", ...firebaseOrigins(config)],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      ...(https ? { upgradeInsecureRequests: [] } : {}),
    },
  };
  const setHeaders = helmet({
    contentSecurityPolicy: policy,
    hsts: https ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
    setHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined));
  });
  if (!imageOrigins) return;
  // A page written as the request came in may show notas of a copy read after that: just after a start,
  // the page waits for the first copy, whose images come from origins not known yet. Pages get their
  // policy again once they are ready, from the copy they show.
  const setPolicy = contentSecurityPolicy(policy);
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return done(null, payload);
    setPolicy(request.raw, reply.raw, (error) => (error instanceof Error ? done(error) : done(null, payload)));
  });
}
