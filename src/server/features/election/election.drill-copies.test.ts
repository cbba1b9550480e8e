import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, uploadPhoto } from '#server/testing/photos';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { type S3Local, startS3Local } from '#server/testing/s3-local';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { type DropboxContractServer, startDropboxContractServer } from '#tests/support/dropbox-contract-server';

let t: TestApp | undefined;
let dropbox: DropboxContractServer | undefined;
let s3: S3Local | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  await dropbox?.close();
  dropbox = undefined;
  await s3?.stop();
  s3 = undefined;
});

describe("'Terminar simulacro' with photos in Dropbox", () => {
  it('leaves no file and no public link of the drill in Dropbox', async () => {
    dropbox = await startDropboxContractServer();
    t = await createTestApp(
      {
        storage: {
          driver: 'dropbox',
          appKey: dropbox.appKey,
          appSecret: dropbox.appSecret,
          refreshToken: dropbox.refreshToken,
          apiUrl: dropbox.url,
          contentUrl: dropbox.url,
        },
      },
      { electionPhase: 'simulacro' },
    );
    const cookies = await signInPeople(t);
    const [id] = (await addRecords(t, SLUG_A, [{ nombre: 'Dixon Bracho Ferrebus' }])) as [number];
    const sent = await uploadPhoto(
      t,
      { slug: SLUG_A, recordId: id, kind: 'gobernador' },
      { data: fixture('ballot.jpg'), filename: 'boleta.jpg' },
      cookies.validatorA,
    );
    expect(sent.statusCode, sent.body).toBe(201);
    expect(dropbox.files()).toContain('/Cabimas/Gobernador/Dixon Bracho Ferrebus.jpg');
    expect(dropbox.allLinks()).toHaveLength(1);

    const ended = await t.request({
      method: 'POST',
      url: '/api/admin/election/drill/end',
      headers: { cookie: cookies.admin, 'idempotency-key': randomUUID() },
      payload: { votes: 0, photos: 1, reason: 'Termina la práctica' },
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(dropbox.files()).toEqual([]);
    expect(dropbox.allLinks()).toEqual([]);
  });

  it('leaves no object of the drill in an S3 bucket', async () => {
    s3 = await startS3Local();
    t = await createTestApp({ storage: s3.config() }, { electionPhase: 'simulacro' });
    const cookies = await signInPeople(t);
    const [id] = (await addRecords(t, SLUG_A, [{ nombre: 'Dixon Bracho Ferrebus' }])) as [number];
    const sent = await uploadPhoto(
      t,
      { slug: SLUG_A, recordId: id, kind: 'gobernador' },
      { data: fixture('ballot.jpg'), filename: 'boleta.jpg' },
      cookies.validatorA,
    );
    expect(sent.statusCode, sent.body).toBe(201);
    expect(s3.listKeys().length).toBeGreaterThan(0);

    const ended = await t.request({
      method: 'POST',
      url: '/api/admin/election/drill/end',
      headers: { cookie: cookies.admin, 'idempotency-key': randomUUID() },
      payload: { votes: 0, photos: 1, reason: 'Termina la práctica' },
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(s3.listKeys()).toEqual([]);
  });
});
