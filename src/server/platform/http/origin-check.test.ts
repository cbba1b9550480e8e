import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/testing/test-app';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A state-changing request with the Host and Origin headers a page would send. */
async function post(t: TestApp, origin: string, host: string): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: '/api/notas', headers: { origin, host } });
  return res.statusCode;
}

describe('the same-origin check without PUBLIC_ORIGIN (development and tests)', () => {
  it('never takes "our origin" from the Host header: a page on a rebinding name is refused', async () => {
    t = await createTestApp({ publicOrigin: undefined });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    // The browser of a DNS-rebinding page sends matching Origin and Host, both the attacker's name.
    expect(await post(t, `http://rebind.example:${port}`, `rebind.example:${port}`)).toBe(403);
    expect(await post(t, 'http://evil.example', 'evil.example')).toBe(403);
  });

  it('accepts the address the server listens on (404: past the check, no such route)', async () => {
    t = await createTestApp({ publicOrigin: undefined });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    expect(await post(t, `http://127.0.0.1:${port}`, `127.0.0.1:${port}`)).toBe(404);
    expect(await post(t, `http://localhost:${port}`, `localhost:${port}`)).toBe(404);
    expect(await post(t, `http://localhost:${port + 1}`, `localhost:${port}`)).toBe(403);
  });

  it('with PUBLIC_ORIGIN, only that origin, whatever the Host says', async () => {
    t = await createTestApp({ publicOrigin: 'https://comando.example.org' });
    expect(await post(t, 'https://comando.example.org', 'interno:3000')).toBe(404);
    expect(await post(t, 'http://interno:3000', 'interno:3000')).toBe(403);
  });
});
