import { createHmac, timingSafeEqual } from 'node:crypto';
import Client, { type HttpClient } from 'android-sms-gateway';
import type { IncomingSms, SmsGateway, WebhookRequest } from '#server/features/sms/sms.gateway';
import type { SmsGatewayConfig } from '#server/platform/config/config';
import { smsWebhookSchema } from '#shared/features/sms/sms';

/**
 * SMS Gateway for Android (sms-gate.app): an Android phone with a local SIM that forwards what it
 * receives as signed webhooks and sends what its API is given. Replies go through the official client,
 * `android-sms-gateway`, over fetch; webhooks are checked as its documentation says: X-Signature is the
 * hex HMAC-SHA256 of the raw body followed by X-Timestamp (Unix seconds), with the signing key set in
 * the app, and a timestamp more than five minutes from our clock is refused (a replay).
 */
export const SIGNATURE_WINDOW_SECONDS = 5 * 60;
/** How long a reply may take to reach the gateway's API before it counts as failed. */
const SEND_TIMEOUT_MS = 10_000;

export function signWebhook(signingKey: string, rawBody: string, timestamp: string): string {
  return createHmac('sha256', signingKey)
    .update(rawBody + timestamp)
    .digest('hex');
}

const header = (headers: WebhookRequest['headers'], name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The client's HTTP calls through fetch, as its README shows, with a time limit; a non-2xx is an error. */
function fetchClient(): HttpClient {
  const call = async <T>(method: string, url: string, body?: unknown, headers?: Record<string, string>) => {
    const response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`La pasarela respondió ${response.status}: ${text.slice(0, 200)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return {
    get: (url, headers) => call('GET', url, undefined, headers),
    post: (url, body, headers) => call('POST', url, body, headers),
    put: (url, body, headers) => call('PUT', url, body, headers),
    patch: (url, body, headers) => call('PATCH', url, body, headers),
    delete: (url, headers) => call('DELETE', url, undefined, headers),
  };
}

export function createAndroidSmsGateway(config: SmsGatewayConfig): SmsGateway {
  const client = new Client(config.login, config.password, fetchClient(), config.url);
  return {
    authenticate(request, now) {
      const signature = header(request.headers, 'x-signature');
      const timestamp = header(request.headers, 'x-timestamp');
      if (!signature || !timestamp) return { ok: false, reason: 'Faltan las cabeceras X-Signature y X-Timestamp.' };
      const expected = Buffer.from(signWebhook(config.signingKey, request.rawBody, timestamp), 'hex');
      const given = Buffer.from(signature, 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return { ok: false, reason: 'La firma del webhook no es válida.' };
      }
      const seconds = Number(timestamp);
      if (!Number.isInteger(seconds) || Math.abs(now.getTime() / 1000 - seconds) > SIGNATURE_WINDOW_SECONDS) {
        return { ok: false, reason: 'El webhook es demasiado antiguo (o su hora no es válida).' };
      }
      return { ok: true };
    },
    incoming(body) {
      const parsed = smsWebhookSchema.safeParse(body);
      if (!parsed.success || parsed.data.event !== 'sms:received') return undefined;
      const { message, phoneNumber, receivedAt, messageId } = parsed.data.payload;
      if (message === undefined || !phoneNumber || !receivedAt) return undefined;
      return { from: phoneNumber, text: message, receivedAt, gatewayId: messageId ?? null } satisfies IncomingSms;
    },
    async send(to, text) {
      const state = await client.send({ phoneNumbers: [to], message: text, withDeliveryReport: true });
      return { id: state?.id ?? null };
    },
    // The API's own health check (GET {url}/health); 'warn' still sends, 'fail' or no answer does not.
    async health() {
      try {
        const answer = await client.getHealth();
        if (answer.status === 'fail') return { ok: false, reason: 'La pasarela responde que no funciona (fail).' };
        return { ok: true };
      } catch (error) {
        return { ok: false, reason: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
