/**
 * The SHA-256 of a photo's bytes, lowercase hex, as the server computes it (docs/decisions/082).
 * Undefined where the browser has no Web Crypto (a page served over plain HTTP): the photo then goes
 * without it, and the server stores the hash of what arrived, as it always did.
 */
export async function sha256Hex(data: ArrayBuffer): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined;
  try {
    // A view of the bytes, not the buffer itself: the test's DOM (jsdom) has an ArrayBuffer of its own
    // that Node's Web Crypto does not take; browsers take either.
    const digest = new Uint8Array(await subtle.digest('SHA-256', new Uint8Array(data)));
    return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
  } catch {
    return undefined;
  }
}
