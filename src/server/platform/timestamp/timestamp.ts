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

/** The children of a DER constructed element whose content runs from `start` to `end`. */
function children(der: Buffer, start: number, end: number): { tag: number; start: number; end: number }[] {
  const out: { tag: number; start: number; end: number }[] = [];
  for (let at = start; at < end; ) {
    const tag = der[at];
    if (tag === undefined) break;
    const { start: content, length } = element(der, at);
    if (content + length > end) throw new Error('DER element longer than its parent');
    out.push({ tag, start: content, end: content + length });
    at = content + length;
  }
  return out;
}

const SHA256_OID = Buffer.from('608648016503040201', 'hex');

/**
 * What a time-stamp reply says it stamped: the SHA-256 of its message imprint (hex) and its time
 * (GeneralizedTime as ISO), read from the TSTInfo inside the reply (RFC 3161 §2.4.2). Undefined when the
 * reply holds no token, or its imprint is not a SHA-256. It does not check the authority's signature:
 * `openssl ts -verify -CAfile` does (LEEME.txt of the evidence package).
 */
export function timestampImprint(reply: Buffer): { digestHex: string; genTime: string } | undefined {
  try {
    const nth = (node: { start: number; end: number }, i: number, tag: number) => {
      const child = children(reply, node.start, node.end)[i];
      if (!child || child.tag !== tag) throw new Error(`expected tag ${tag}`);
      return child;
    };
    const top = { start: 0, end: reply.length };
    const response = nth(top, 0, 0x30);
    const token = nth(response, 1, 0x30); // ContentInfo, after the PKIStatusInfo
    const signedData = nth(nth(token, 1, 0xa0), 0, 0x30);
    const encapsulated = nth(signedData, 2, 0x30); // after version and digestAlgorithms
    const content = nth(nth(encapsulated, 1, 0xa0), 0, 0x04);
    const tstInfo = children(reply, content.start, content.end)[0];
    if (tstInfo?.tag !== 0x30) return undefined;
    const imprint = nth(tstInfo, 2, 0x30); // after version and policy
    const algorithm = nth(nth(imprint, 0, 0x30), 0, 0x06);
    if (!reply.subarray(algorithm.start, algorithm.end).equals(SHA256_OID)) return undefined;
    const digest = nth(imprint, 1, 0x04);
    const time = reply.subarray(nth(tstInfo, 4, 0x18).start, nth(tstInfo, 4, 0x18).end).toString('latin1');
    const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\.\d+)?Z$/.exec(time);
    const genTime = m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ?? ''}Z` : time;
    return { digestHex: reply.subarray(digest.start, digest.end).toString('hex'), genTime };
  } catch {
    return undefined;
  }
}
