import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '#server/cli';
import type { StorageConfig } from '#server/platform/config/config';
import { copyDatabase } from '#server/platform/db/backup';
import { databaseFiles } from '#server/testing/database-files';
import { fixture, uploadPhoto } from '#server/testing/photos';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { type S3Local, startS3Local } from '#server/testing/s3-local';
import { createTestApp, setElectionPhase, type TestApp, testDialect } from '#server/testing/test-app';
import { recordsAdminMessages } from '#shared/features/records-admin/records-admin';
import { type DropboxContractServer, startDropboxContractServer } from '#tests/support/dropbox-contract-server';

let t: TestApp | undefined;
let dropbox: DropboxContractServer | undefined;
let s3: S3Local | undefined;
const folders: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  await dropbox?.close();
  dropbox = undefined;
  await s3?.stop();
  s3 = undefined;
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

const PEOPLE_IN_LISTS = [
  { nombre: 'Yusmary Chourio Fuenmayor', telefono: '0414-6123457' },
  { nombre: 'Wilmer Atencio Ocando', telefono: '0424-6189012' },
];
/** What no file may hold after the purge: each name, its words, each phone as typed and its digits. */
const secrets = PEOPLE_IN_LISTS.flatMap((p) => [
  ...p.nombre.split(' '),
  p.telefono,
  p.telefono.replace(/\D/g, '').slice(-7),
]);
const found = (bytes: Buffer) => secrets.filter((s) => bytes.includes(Buffer.from(s, 'utf8')));

const purge = (cookie: string, photos: 'keep' | 'remove') =>
  t?.request({
    method: 'POST',
    url: '/api/admin/records/purge',
    headers: { cookie },
    payload: { photos, confirm: 'BORRAR DATOS PERSONALES' },
  });

function dropboxConfig(server: DropboxContractServer): StorageConfig {
  return {
    driver: 'dropbox',
    appKey: server.appKey,
    appSecret: server.appSecret,
    refreshToken: server.refreshToken,
    apiUrl: server.url,
    contentUrl: server.url,
  };
}

describe("'Borrar datos personales' and the copies outside the tables", () => {
  it('withdraws every file Dropbox holds under a name and every public link, and forgets shared_url', async () => {
    dropbox = await startDropboxContractServer();
    t = await createTestApp({ storage: dropboxConfig(dropbox) });
    const cookies = await signInPeople(t);
    const ids = (await addRecords(t, SLUG_A, PEOPLE_IN_LISTS)) as [number, number];
    for (const [recordId, kind] of [
      [ids[0], 'gobernador'],
      [ids[0], 'an'],
      [ids[1], 'clez'],
    ] as const) {
      const sent = await uploadPhoto(
        t,
        { slug: SLUG_A, recordId, kind },
        { data: fixture('ballot.jpg'), filename: 'boleta.jpg' },
        cookies.validatorA,
      );
      expect(sent.statusCode, sent.body).toBe(201);
    }
    const named = dropbox.files().filter((f) => !f.startsWith('/_comando/'));
    expect(named).toEqual([
      '/Cabimas/AN/Yusmary Chourio Fuenmayor.jpg',
      '/Cabimas/CLEZ/Wilmer Atencio Ocando.jpg',
      '/Cabimas/Gobernador/Yusmary Chourio Fuenmayor.jpg',
    ]);
    expect(dropbox.allLinks()).toHaveLength(3);
    const evidence = dropbox.files().filter((f) => f.startsWith('/_comando/'));
    expect(evidence).toHaveLength(9);

    await setElectionPhase(t.db, 'cerrada', new Date());
    // The photos are kept: their files under generated keys stay, the copies under names and links go.
    const kept = await purge(cookies.admin, 'keep');
    expect(kept?.statusCode, kept?.body).toBe(200);
    expect(kept?.json()).toMatchObject({ records: 2, sharedLinks: 3, sharedLinksLeft: 0, databaseRewritten: true });
    expect(dropbox.files()).toEqual(evidence);
    expect(dropbox.allLinks()).toEqual([]);
    const urls = await t.db.kysely.selectFrom('photos').select('shared_url').execute();
    expect(urls).toEqual([{ shared_url: null }, { shared_url: null }, { shared_url: null }]);
    // Removed: nothing at all is left in Dropbox.
    const removed = await purge(cookies.admin, 'remove');
    expect(removed?.json()).toMatchObject({ photoFiles: 9, photoFilesRemoved: 9, sharedLinks: 0 });
    expect(dropbox.files()).toEqual([]);
  });

  it('leaves no object in an S3 bucket when the photos are removed, and keeps them all when they are kept', async () => {
    s3 = await startS3Local();
    t = await createTestApp({ storage: s3.config() });
    const cookies = await signInPeople(t);
    const ids = (await addRecords(t, SLUG_A, PEOPLE_IN_LISTS)) as [number, number];
    for (const [recordId, kind] of [
      [ids[0], 'gobernador'],
      [ids[1], 'clez'],
    ] as const) {
      const sent = await uploadPhoto(
        t,
        { slug: SLUG_A, recordId, kind },
        { data: fixture('ballot.jpg'), filename: 'boleta.jpg' },
        cookies.validatorA,
      );
      expect(sent.statusCode, sent.body).toBe(201);
    }
    const stored = s3.listKeys();
    expect(stored.length).toBeGreaterThanOrEqual(2);
    // No object key carries a name: the bucket holds the photos under generated keys only.
    expect(stored.filter((key) => secrets.some((s) => key.includes(s)))).toEqual([]);

    await setElectionPhase(t.db, 'cerrada', new Date());
    const kept = await purge(cookies.admin, 'keep');
    expect(kept?.statusCode, kept?.body).toBe(200);
    expect(s3.listKeys()).toEqual(stored);
    const removed = await purge(cookies.admin, 'remove');
    expect(removed?.statusCode, removed?.body).toBe(200);
    expect(removed?.json()).toMatchObject({ photoFiles: stored.length, photoFilesRemoved: stored.length });
    expect(s3.listKeys()).toEqual([]);
  });

  it('keeps the link of a copy Dropbox did not let go, says so, and finishes when run again', async () => {
    dropbox = await startDropboxContractServer();
    t = await createTestApp({ storage: dropboxConfig(dropbox) });
    const cookies = await signInPeople(t);
    const [id] = (await addRecords(t, SLUG_A, PEOPLE_IN_LISTS.slice(0, 1))) as [number];
    const sent = await uploadPhoto(
      t,
      { slug: SLUG_A, recordId: id, kind: 'gobernador' },
      { data: fixture('ballot.jpg'), filename: 'boleta.jpg' },
      cookies.validatorA,
    );
    expect(sent.statusCode, sent.body).toBe(201);
    await setElectionPhase(t.db, 'cerrada', new Date());
    dropbox.unavailableNext({ route: '/2/sharing/get_shared_link_metadata', retryAfter: 0, times: 4 });
    const first = await purge(cookies.admin, 'keep');
    expect(first?.json()).toMatchObject({ sharedLinks: 1, sharedLinksLeft: 1 });
    expect(dropbox.allLinks()).toHaveLength(1);
    const again = await purge(cookies.admin, 'keep');
    expect(again?.json()).toMatchObject({ sharedLinks: 1, sharedLinksLeft: 0 });
    expect(dropbox.allLinks()).toEqual([]);
    expect(dropbox.files().filter((f) => !f.startsWith('/_comando/'))).toEqual([]);
  });

  it("leaves no name or phone readable in the database's files, nor in a backup taken after it", async () => {
    t = await createTestApp();
    const cookies = await signInPeople(t);
    await addRecords(t, SLUG_A, [...PEOPLE_IN_LISTS, {}, {}]);
    const before = await t.request({ url: '/api/auth/session', headers: { cookie: cookies.validatorA } });
    expect(before.json().personalDataPurgedAt).toBeUndefined();
    // The statistics an ANALYZE (or autovacuum's) keeps of each column hold samples of its values.
    await sql`analyze`.execute(t.db.kysely);
    const files = await databaseFiles(t);
    expect(found(files)).toEqual(secrets);

    await setElectionPhase(t.db, 'cerrada', new Date());
    const done = await purge(cookies.admin, 'keep');
    expect(done?.json()).toMatchObject({ records: 4, databaseRewritten: true });
    expect(found(await databaseFiles(t))).toEqual([]);
    // The phones learn of it at their next contact: the session says when it ran.
    const session = await t.request({ url: '/api/auth/session', headers: { cookie: cookies.validatorA } });
    expect(session.json().personalDataPurgedAt).toEqual(expect.any(String));
    // Registros offers no phone to show any more: none masked, and 'Mostrar' has nothing to answer.
    const list = await t.request({ url: '/api/admin/records', headers: { cookie: cookies.admin } });
    const items = list.json().items as { id: number; telefono: string }[];
    expect(items.map((r) => r.telefono)).toEqual(['', '', '', '']);
    const shown = await t.request({
      method: 'POST',
      url: `/api/admin/records/${items[0]?.id}/phone`,
      headers: { cookie: cookies.admin },
    });
    expect([shown.statusCode, shown.json().message]).toEqual([404, recordsAdminMessages.noPhone]);
    if (testDialect === 'sqlite') {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-backup-'));
      folders.push(folder);
      await copyDatabase({ dataDir: t.config.dataDir, databaseUrl: undefined }, folder, async () => null);
      expect(found(fs.readFileSync(path.join(folder, 'comando.sqlite')))).toEqual([]);
    }
  });

  it('the command line purges the same way and says nothing is left over', async () => {
    t = await createTestApp();
    await signInPeople(t);
    await addRecords(t, SLUG_A, PEOPLE_IN_LISTS);
    await setElectionPhase(t.db, 'cerrada', new Date());
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l), readPassword: async () => '' };
    expect(await runCli(['records:purge', '--conservar-fotos', '--confirmar'], t.db.kysely, io)).toBe(0);
    expect(lines).toEqual(['Datos personales borrados de 2 trámites; las fotos se conservan.']);
  });
});
