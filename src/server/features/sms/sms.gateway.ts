/**
 * What the SMS feature needs from a gateway, whichever it is (docs/decisions/084): to tell its webhooks
 * from forgeries, to read the SMS a webhook carries, and to send an answer. The Android gateway's
 * adapter is in integrations/sms-gateway; another gateway (Twilio, Telerivet) is another adapter of
 * this interface, chosen in app.ts.
 */
export interface SmsGateway {
  /**
   * Whether a webhook request is the gateway's own: its signature over the raw body, and its time
   * within the accepted window of `now`. The reason, in Spanish, when it is not.
   */
  authenticate(request: WebhookRequest, now: Date): { ok: true } | { ok: false; reason: string };
  /** The SMS a webhook's parsed body carries; undefined for other events (sent, delivered, ping). */
  incoming(body: unknown): IncomingSms | undefined;
  /** Sends one SMS; resolves with the gateway's id of it, rejects when the gateway refused it. */
  send(to: string, text: string): Promise<{ id: string | null }>;
  /** Whether the gateway's API answers now, and if not, why in Spanish (Mensajes shows it). */
  health(): Promise<{ ok: true } | { ok: false; reason: string }>;
}

export interface WebhookRequest {
  /** The body exactly as received, before any parsing: the signature covers these bytes. */
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface IncomingSms {
  /** The sender's number as the gateway wrote it. */
  from: string;
  text: string;
  /** When the gateway's phone received it, as the gateway wrote it (part of what makes it the same SMS). */
  receivedAt: string;
  /** The gateway's id of the message, kept for the record (not unique: never used to deduplicate). */
  gatewayId: string | null;
}
