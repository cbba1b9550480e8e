import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAdmin } from '#server/platform/access/guards';
import { NotFound, Unauthorized } from '#server/platform/http/errors';
import {
  smsMessagesPageSchema,
  smsMessagesQuerySchema,
  smsStatusSchema,
  smsWebhookResultSchema,
  smsWebhookSchema,
} from '#shared/features/sms/sms';
import { apiErrorSchema } from '#shared/platform/errors';
import type { SmsGateway } from './sms.gateway';
import type { SmsService } from './sms.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body as received, for the webhook's signature (set by this plugin's JSON parser only). */
    rawBody?: string;
  }
}

export interface SmsRoutesOptions {
  /** The SMS use cases, which vote through the records' own vote writer (compose.ts). */
  sms: SmsService;
  /** The configured gateway; undefined when SMS votes are off (the webhook answers 404). */
  smsGateway: SmsGateway | undefined;
}

/** Votes by SMS (docs/decisions/084): the gateway's webhook, and 'Mensajes' for admins. */
export const smsRoutes: FastifyPluginAsyncZod<SmsRoutesOptions> = async (app, options) => {
  const { sms, smsGateway: gateway } = options;

  // In this plugin only: JSON kept as received too, since the signature covers the exact bytes.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.rawBody = body as string;
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('El cuerpo no es JSON válido.'), { statusCode: 400 }), undefined);
    }
  });

  app.post(
    '/api/sms/webhook',
    {
      schema: {
        tags: ['sms'],
        summary: 'Webhook de la pasarela SMS Gateway for Android (sms:received), firmado con HMAC-SHA256',
        description:
          'Cabeceras X-Signature (HMAC-SHA256 en hexadecimal del cuerpo seguido de X-Timestamp) y X-Timestamp ' +
          '(segundos Unix, a menos de 5 minutos). La misma entrega repetida se aplica una sola vez; mientras la primera ' +
          'se registra, la repetida recibe 503 y la pasarela la reenvía más tarde.',
        body: smsWebhookSchema,
        response: {
          200: smsWebhookResultSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
      // The guard, before the body is validated: a forgery learns nothing about the fields.
      preValidation: async (request) => {
        if (!gateway) throw NotFound();
        const check = gateway.authenticate(
          { rawBody: request.rawBody ?? '', headers: request.headers },
          app.config.now(),
        );
        if (!check.ok) {
          request.log.warn({ reason: check.reason }, 'SMS webhook refused');
          throw Unauthorized(check.reason);
        }
      },
    },
    async (request) => ({ outcome: await sms.receiveWebhook(request.body) }),
  );

  app.get(
    '/api/admin/sms/status',
    {
      schema: {
        tags: ['sms'],
        summary:
          'Si la pasarela SMS está configurada y responde, el número al que se escribe y el último mensaje recibido',
        response: { 200: smsStatusSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      requireAdmin(request);
      return sms.status();
    },
  );

  app.get(
    '/api/admin/sms/messages',
    {
      schema: {
        tags: ['sms'],
        summary: 'Mensajes SMS recibidos y enviados, con su resultado; por departamento y número',
        querystring: smsMessagesQuerySchema,
        response: { 200: smsMessagesPageSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      requireAdmin(request);
      return sms.list(request.query);
    },
  );
};
