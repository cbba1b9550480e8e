/** http(s), mailto: and tel: links; images only over http(s). The server checks the same again. */
export function safeUrl(raw: string, kind: 'link' | 'image'): string | null {
  const value = raw.trim();
  if (kind === 'link' && /^(mailto|tel):/i.test(value)) return value;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}
