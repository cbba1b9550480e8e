import { randomBytes } from 'node:crypto';

/*
 * An RFC 3161 time-stamp of the audit chain's head (docs/decisions/074, and at each close 088): the
 * authority signs "this hash existed at this time", so not even whoever runs the server can rewrite the
 * chain afterwards unseen. The
 * request is one fixed DER shape (a SHA-256 imprint, a nonce, the authority's certificate asked for),
 * written here in a few bytes; the reply is kept as it came, for `openssl ts -verify`.
 */

/** How long an authority may take to answer, unless the caller says otherwise. */
export const TIMESTAMP_TIMEOUT_MS = 15_000;

/** The authority did not answer (in time, or at all), or refused to stamp. */
export class TimestampError extends Error {
  constructor(
    readonly reason: 'unavailable' | 'refused',
    detail: string,
  ) {
    super(`time-stamp ${reason}: ${detail}`);
    this.name = 'TimestampError';
  }
}

/** DER of a TimeStampReq for a SHA-256 digest (hex). */
export function timestampRequest(digestHex: string): Buffer {
  const digest = Buffer.from(digestHex, 'hex');
  if (digest.length !== 32) throw new Error('a SHA-256 digest has 32 bytes');
  const nonce = randomBytes(8);
  // A positive INTEGER in its shortest form: first byte between 0x01 and 0x7f.
  nonce[0] = ((nonce[0] ?? 0) & 0x7f) | 0x01;
  const sha256 = Buffer.from('300d06096086480165030402010500', 'hex');
  const imprint = Buffer.concat([Buffer.from([0x30, 0x31]), sha256, Buffer.from([0x04, 0x20]), digest]);
  const body = Buffer.concat([
    Buffer.from([0x02, 0x01, 0x01]), // version 1
    imprint,
    Buffer.from([0x02, 0x08]),
    nonce,
    Buffer.from([0x01, 0x01, 0xff]), // certReq TRUE
  ]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
}

/** Where a DER element's content starts and how long it is. */
function element(der: Buffer, at: number): { start: number; length: number } {
  const first = der[at + 1] ?? 0;
  if (first < 0x80) return { start: at + 2, length: first };
  const bytes = first & 0x7f;
  let length = 0;
  for (let i = 0; i < bytes; i++) length = length * 256 + (der[at + 2 + i] ?? 0);
  return { start: at + 2 + bytes, length };
}

/** The PKIStatus of a TimeStampResp: 0 granted, 1 granted with modifications, 2+ refused. */
export function timestampStatus(reply: Buffer): number | undefined {
  if (reply[0] !== 0x30) return undefined;
  const outer = element(reply, 0);
  if (reply[outer.start] !== 0x30) return undefined;
  const info = element(reply, outer.start);
  if (reply[info.start] !== 0x02) return undefined;
  const status = element(reply, info.start);
  return status.length === 1 ? reply[status.start] : undefined;
}

/** Asks the authority to stamp a SHA-256 digest: its reply (DER), or a TimestampError saying why not. */
export async function requestTimestamp(
  url: string,
  digestHex: string,
  options: { timeoutMs?: number } = {},
): Promise<Buffer> {
  let reply: Buffer;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
      body: new Uint8Array(timestampRequest(digestHex)),
      signal: AbortSignal.timeout(options.timeoutMs ?? TIMESTAMP_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    reply = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    throw new TimestampError('unavailable', (error as Error).message);
  }
  const status = timestampStatus(reply);
  if (status !== 0 && status !== 1) throw new TimestampError('refused', `PKIStatus ${status ?? '?'}`);
  return reply;
}
