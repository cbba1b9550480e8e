// A local stand-in for SMS Gateway for Android (sms-gate.app), both ways, as its documentation gives it:
//   - its API, where Comando sends replies: POST {base}/message with HTTP Basic credentials and
//     { phoneNumbers, message, ... } (what the official `android-sms-gateway` client sends), answered 202
//     with the message's state { id, state: 'Pending', recipients: [{ phoneNumber, state }] }; 401 for
//     other credentials, 400 for a body without numbers or text; GET {base}/health answers
//     { status: 'pass', ... }. `mode = 'down'` answers 500 to everything.
//   - its webhooks: `deliver()` POSTs an `sms:received` event ({ deviceId, event, id, payload: { messageId,
//     message, phoneNumber, simNumber, receivedAt }, webhookId }) signed as the app signs them: X-Signature
//     is the hex HMAC-SHA256 of the raw body followed by X-Timestamp (Unix seconds of the given clock).
// Used by the SMS feature's tests, the end-to-end suite and the SMS benchmark.
import { createHash, createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentSms {
  phoneNumbers: string[];
  message: string;
  /** The Authorization header's user, as the API saw it. */
  login: string;
  userAgent: string | undefined;
  id: string;
}

export interface SmsToDeliver {
  from: string;
  text: string;
  /** When the phone received it, as the app writes it (its local time with offset); default: the clock's now in Caracas. */
  receivedAt?: string;
  /** Unix seconds for X-Timestamp; default: the clock's now. */
  timestamp?: number;
  /** The key to sign with; default: the gateway's own. */
  signingKey?: string;
  /** A signature to send instead of the right one. */
  signature?: string;
}

export interface SmsGatewayContractServer {
  /** The API's base, what SMS_GATEWAY_URL is set to: http://127.0.0.1:port/3rdparty/v1 */
  url: string;
  login: string;
  password: string;
  signingKey: string;
  /** Every SMS the API was asked to send, in order. */
  sent: SentSms[];
  mode: 'ok' | 'down';
  /** Resolves once at least `count` SMS were sent (at once if they already were). */
  whenSent(count: number): Promise<void>;
  /** The webhook request the app would send for this SMS (signed), without sending it. */
  prepare(sms: SmsToDeliver): { raw: string; headers: Record<string, string> };
  /** Delivers one received SMS to `webhookUrl` as the app does; the answer's status and body. */
  deliver(
    webhookUrl: string,
    sms: SmsToDeliver,
  ): Promise<{ status: number; body: unknown; raw: string; headers: Record<string, string> }>;
  /** The same request again, byte for byte (a retry of the app). */
  redeliver(
    webhookUrl: string,
    request: { raw: string; headers: Record<string, string> },
  ): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

/** Caracas is UTC−4 all year: the phone's local time as the app writes it (ISO with offset). */
export function caracasTime(at: Date): string {
  const local = new Date(at.getTime() - 4 * 3_600_000);
  return `${local.toISOString().slice(0, 23)}-04:00`;
}

export async function startSmsGatewayContractServer(
  options: { now?: () => Date; port?: number; login?: string; password?: string; signingKey?: string } = {},
): Promise<SmsGatewayContractServer> {
  const now = options.now ?? (() => new Date());
  const login = options.login ?? 'pasarela';
  const password = options.password ?? 'clave-de-la-pasarela';
  const signingKey = options.signingKey ?? 'clave-de-firma-de-prueba';
  const deviceId = 'ffffffffceb0b1db0000018e937c815b';
  const webhookId = randomUUID();
  const waiters = new Set<() => void>();
  const state = { sent: [] as SentSms[], mode: 'ok' as 'ok' | 'down' };

  const answer = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (state.mode === 'down') return answer(res, 500, { message: 'internal server error' });
      // Its health check, as the API gives it (no credentials needed).
      if (req.method === 'GET' && url.pathname === '/3rdparty/v1/health') {
        return answer(res, 200, { status: 'pass', version: '1.0.0', releaseId: 1, checks: {} });
      }
      if (req.method !== 'POST' || url.pathname !== '/3rdparty/v1/message') {
        return answer(res, 404, { message: 'not found' });
      }
      const auth = req.headers.authorization ?? '';
      const [user, pass] = Buffer.from(auth.replace(/^Basic /, ''), 'base64')
        .toString()
        .split(':');
      if (!auth.startsWith('Basic ') || user !== login || pass !== password) {
        return answer(res, 401, { message: 'Unauthorized' });
      }
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return answer(res, 400, { message: 'content type must be application/json' });
      }
      let body: { phoneNumbers?: unknown; message?: unknown; textMessage?: { text?: unknown } };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString());
      } catch {
        return answer(res, 400, { message: 'invalid JSON' });
      }
      const text = typeof body.message === 'string' ? body.message : body.textMessage?.text;
      const numbers = body.phoneNumbers;
      if (!Array.isArray(numbers) || numbers.length === 0 || typeof text !== 'string' || text === '') {
        return answer(res, 400, { message: 'phoneNumbers and message are required' });
      }
      const id = randomUUID().replace(/-/g, '').slice(0, 21);
      state.sent.push({
        phoneNumbers: numbers.map(String),
        message: text,
        login: user,
        userAgent: req.headers['user-agent'],
        id,
      });
      for (const wake of waiters) wake();
      return answer(res, 202, {
        id,
        state: 'Pending',
        recipients: numbers.map((n) => ({ phoneNumber: String(n), state: 'Pending' })),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const post = async (webhookUrl: string, raw: string, headers: Record<string, string>) => {
    const response = await fetch(webhookUrl, { method: 'POST', headers, body: raw });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: response.status, body };
  };

  function prepare(sms: SmsToDeliver): { raw: string; headers: Record<string, string> } {
    const at = now();
    const receivedAt = sms.receivedAt ?? caracasTime(at);
    const payload = {
      deviceId,
      event: 'sms:received',
      id: randomUUID().replace(/-/g, '').slice(0, 21),
      payload: {
        // As the app makes it: from the content, so two messages can share it.
        messageId: createHash('sha256').update(sms.text).digest('hex').slice(0, 16),
        message: sms.text,
        phoneNumber: sms.from,
        simNumber: 1,
        receivedAt,
      },
      webhookId,
    };
    const raw = JSON.stringify(payload);
    const timestamp = String(sms.timestamp ?? Math.floor(at.getTime() / 1000));
    const signature =
      sms.signature ??
      createHmac('sha256', sms.signingKey ?? signingKey)
        .update(raw + timestamp)
        .digest('hex');
    const headers = { 'content-type': 'application/json', 'x-signature': signature, 'x-timestamp': timestamp };
    return { raw, headers };
  }

  return {
    url: `http://127.0.0.1:${port}/3rdparty/v1`,
    login,
    password,
    signingKey,
    get sent() {
      return state.sent;
    },
    get mode() {
      return state.mode;
    },
    set mode(value) {
      state.mode = value;
    },
    whenSent(count) {
      return new Promise<void>((resolve) => {
        const check = () => {
          if (state.sent.length < count) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      });
    },
    prepare,
    async deliver(webhookUrl, sms) {
      const request = prepare(sms);
      return { ...(await post(webhookUrl, request.raw, request.headers)), ...request };
    },
    redeliver(webhookUrl, request) {
      return post(webhookUrl, request.raw, request.headers);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
