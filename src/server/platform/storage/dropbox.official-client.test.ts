// The official `dropbox` SDK (a dev dependency) against our Dropbox stand-in: if the stand-in refuses
// something the SDK sends, or answers in a shape the SDK cannot read, it is narrower than real Dropbox and
// the tests that rely on it prove less than they claim.
import { createRequire } from 'node:module';
import { Dropbox, DropboxResponseError } from 'dropbox';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DropboxContractServer, startDropboxContractServer } from '#tests/support/dropbox-contract-server';

let server: DropboxContractServer;
beforeEach(async () => {
  server = await startDropboxContractServer();
});
afterEach(async () => server.close());

// The SDK's own fetch on Node (node-fetch: downloads are read with its `buffer()`). The SDK always calls
// https://api.dropboxapi.com and https://content.dropboxapi.com; the requests go to the stand-in instead,
// unchanged otherwise.
const nodeFetch = createRequire(import.meta.url)('node-fetch') as (url: string, init?: unknown) => Promise<unknown>;
const toStandIn = (url: string, init?: unknown) =>
  nodeFetch(url.replace(/^https:\/\/(api|content)\.dropboxapi\.com/, server.url), init);

function sdk() {
  return new Dropbox({
    clientId: server.appKey,
    clientSecret: server.appSecret,
    refreshToken: server.refreshToken,
    fetch: toStandIn,
  });
}

describe('the official Dropbox SDK against the stand-in', () => {
  it('gets an access token from the refresh token (parameters in the query string), then uploads and downloads', async () => {
    const dbx = sdk();
    const bytes = Buffer.from('foto de la boleta ñ');
    const up = await dbx.filesUpload({
      path: '/Cabimas/Gobernador/María Pérez.jpg',
      contents: bytes,
      mode: { '.tag': 'overwrite' },
    });
    expect(server.tokenExchanges).toBe(1);
    expect(server.requests[0]).toMatchObject({ route: '/oauth2/token', status: 200 });
    expect(up.result).toMatchObject({
      name: 'María Pérez.jpg',
      path_display: '/Cabimas/Gobernador/María Pérez.jpg',
      size: bytes.length,
    });
    expect(server.file('/cabimas/gobernador/maría pérez.jpg')?.equals(bytes)).toBe(true);

    const down = await dbx.filesDownload({ path: '/Cabimas/Gobernador/María Pérez.jpg' });
    expect(down.result.name).toBe('María Pérez.jpg');
    expect((down.result as unknown as { fileBinary: Buffer }).fileBinary.equals(bytes)).toBe(true);
    expect(server.tokenExchanges).toBe(1); // the token is kept for the next calls
  });

  it('reads metadata, shares, lists links and deletes as the adapter does', async () => {
    const dbx = sdk();
    await dbx.filesUpload({ path: '/Mara/AN/José.jpg', contents: Buffer.from('x') });
    expect((await dbx.filesGetMetadata({ path: '/Mara/AN/José.jpg' })).result).toMatchObject({ '.tag': 'file' });
    const link = await dbx.sharingCreateSharedLinkWithSettings({ path: '/Mara/AN/José.jpg' });
    expect(link.result.url).toMatch(/^https:\/\/www\.dropbox\.com\/scl\/fi\//);
    const listed = await dbx.sharingListSharedLinks({ path: '/Mara/AN/José.jpg' });
    expect(listed.result.links.map((l) => l.url)).toEqual([link.result.url]);
    await dbx.filesDeleteV2({ path: '/Mara/AN/José.jpg' });
    expect(server.files()).toEqual([]);
  });

  it('renews an expired access token with the refresh token and carries on', async () => {
    const dbx = sdk();
    await dbx.filesUpload({ path: '/a.jpg', contents: Buffer.from('1') });
    // The SDK renews ahead of expiry by the time it was told (expires_in): make the stand-in's next one short.
    (dbx as unknown as { auth: { setAccessTokenExpiresAt(d: Date): void } }).auth.setAccessTokenExpiresAt(
      new Date(Date.now() - 1_000),
    );
    await dbx.filesUpload({ path: '/b.jpg', contents: Buffer.from('2') });
    expect(server.tokenExchanges).toBe(2);
    expect(server.files()).toEqual(['/a.jpg', '/b.jpg']);
  });

  it('gets Dropbox’s errors in the shape the SDK reads: a missing file, a bad refresh token', async () => {
    const missing = await sdk()
      .filesDownload({ path: '/no-existe.jpg' })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(DropboxResponseError);
    expect(missing).toMatchObject({
      status: 409,
      error: { error_summary: expect.stringMatching(/^path\/not_found\//) },
    });

    const refused = await new Dropbox({
      clientId: server.appKey,
      clientSecret: server.appSecret,
      refreshToken: 'otro-token',
      fetch: toStandIn,
    })
      .filesUpload({ path: '/c.jpg', contents: Buffer.from('3') })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, error: { error: 'invalid_grant' } });
    expect(server.files()).toEqual([]);
  });
});
