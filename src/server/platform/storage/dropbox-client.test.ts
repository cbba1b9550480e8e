import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DropboxContractServer, startDropboxContractServer } from '#tests/support/dropbox-contract-server';
import { createDropboxClient, type DropboxClientOptions, DropboxError, headerSafeJson } from './dropbox-client';

let server: DropboxContractServer;
beforeEach(async () => {
  server = await startDropboxContractServer();
  server.putFile('/a.txt', Buffer.from('a'));
});
afterEach(async () => {
  await server.close();
});

const clientFor = (overrides: Partial<DropboxClientOptions> = {}) =>
  createDropboxClient({
    appKey: server.appKey,
    appSecret: server.appSecret,
    refreshToken: server.refreshToken,
    apiUrl: server.url,
    contentUrl: server.url,
    ...overrides,
  });

const metadata = (client: ReturnType<typeof clientFor>) =>
  client.rpc<{ size: number }>('/2/files/get_metadata', { path: '/a.txt' });

const statuses = () => server.requests.map((r) => `${r.route} ${r.status}`);

describe('Dropbox access token', () => {
  it('is exchanged once and reused', async () => {
    const client = clientFor();
    await metadata(client);
    await metadata(client);
    expect(server.tokenExchanges).toBe(1);
  });

  it('is renewed ahead of its expiry, before Dropbox refuses it', async () => {
    server.tokenLifetimeSeconds = 1;
    const client = clientFor();
    await metadata(client);
    await new Promise((r) => setTimeout(r, 600));
    await metadata(client);
    expect(server.tokenExchanges).toBe(2);
    expect(statuses().filter((s) => s.endsWith(' 401'))).toEqual([]);
  });

  it('is refreshed once for concurrent calls', async () => {
    server.tokenDelayMs = 100;
    const client = clientFor();
    const answers = await Promise.all(Array.from({ length: 5 }, () => metadata(client)));
    expect(answers.map((a) => a.size)).toEqual([1, 1, 1, 1, 1]);
    expect(server.tokenExchanges).toBe(1);
  });

  it('is renewed once when Dropbox says it expired, and the call repeated', async () => {
    const client = clientFor();
    await metadata(client);
    server.expireTokens();
    expect((await metadata(client)).size).toBe(1);
    expect(server.tokenExchanges).toBe(2);
    expect(statuses().slice(-3)).toEqual([
      '/2/files/get_metadata 401',
      '/oauth2/token 200',
      '/2/files/get_metadata 200',
    ]);
  });

  it('fails clearly with a bad refresh token or app secret', async () => {
    const bad = metadata(clientFor({ refreshToken: 'revocado' }));
    await expect(bad).rejects.toThrow(/DROPBOX_REFRESH_TOKEN \(invalid_grant\)/);
    await expect(bad).rejects.toBeInstanceOf(DropboxError);
    await expect(metadata(clientFor({ appSecret: 'otra' }))).rejects.toThrow(/DROPBOX_APP_SECRET/);
    expect(server.tokenExchanges).toBe(0);
  });
});

describe('Dropbox limits and errors', () => {
  it('waits out a 429 for its Retry-After and repeats the call', async () => {
    const client = clientFor();
    await metadata(client);
    server.rateLimitNext({ retryAfter: 0.2 });
    const started = performance.now();
    expect((await metadata(client)).size).toBe(1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(statuses().slice(-2)).toEqual(['/2/files/get_metadata 429', '/2/files/get_metadata 200']);
  });

  it('waits out a 503 and a 429 on the token call too', async () => {
    server.unavailableNext({ retryAfter: 0.05 });
    server.rateLimitNext({ route: '/oauth2/token', retryAfter: 0.05 });
    expect((await metadata(clientFor())).size).toBe(1);
    expect(server.tokenExchanges).toBe(1);
  });

  it('gives up after a bounded number of retries, or at once when asked to wait too long', async () => {
    const client = clientFor({ maxRetries: 2, maxRetryWaitMs: 1000 });
    await metadata(client);
    server.rateLimitNext({ retryAfter: 0.01, times: 3 });
    const error = await metadata(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DropboxError);
    expect((error as DropboxError).is('too_many_requests')).toBe(true);
    expect((error as DropboxError).message).toMatch(/^Dropbox está limitando las solicitudes/);

    server.rateLimitNext({ retryAfter: 300 });
    const started = performance.now();
    await expect(metadata(client)).rejects.toThrow(/limitando/);
    // At once rather than after the 300 s Dropbox asked for: 10 s tells the two apart on any machine.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('turns a 409 into an error carrying its tags', async () => {
    const error = await clientFor()
      .rpc('/2/files/get_metadata', { path: '/no-existe.txt' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DropboxError);
    expect((error as DropboxError).status).toBe(409);
    expect((error as DropboxError).is('path/not_found')).toBe(true);
    expect((error as DropboxError).is('path')).toBe(true);
    expect((error as DropboxError).is('path/conflict')).toBe(false);
  });

  it('keeps a 400 in plain text as the message', async () => {
    await expect(clientFor().rpc('/2/files/get_metadata', { path: 'sin-barra' })).rejects.toThrow(
      /HTTP 400 .*did not match pattern/,
    );
  });
});

describe('headerSafeJson', () => {
  it('escapes everything outside ASCII, so the header carries "María Pérez" intact', () => {
    const value = { path: '/Bolívar/Gobernador/María Pérez 😀.jpg' };
    const header = headerSafeJson(value);
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(header).toContain('Mar\\u00eda P\\u00e9rez');
    expect(JSON.parse(header)).toEqual(value);
  });

  it('is what Dropbox needs: raw accents in the header are refused with a 400', async () => {
    const token = await fetch(`${server.url}/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${server.appKey}:${server.appSecret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: server.refreshToken }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const res = await fetch(`${server.url}/2/files/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token.access_token}`,
        'content-type': 'application/octet-stream',
        'dropbox-api-arg': JSON.stringify({ path: '/Bolívar/x.jpg', mode: 'overwrite' }),
      },
      body: 'x',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/could not decode input as JSON/);
  });
});
