import { afterEach, describe, expect, it } from 'vitest';
import { addCandidatePhoto } from '#server/testing/admin';
import { addStoredPhoto, fixture } from '#server/testing/photos';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { headTusUpload, sendTusPhoto } from '#server/testing/tus';

let t: TestApp;
afterEach(async () => t?.close());

describe('personal answers are kept by no cache', () => {
  it('answers every kind of personal request with Cache-Control: no-store, errors and uploads included', async () => {
    t = await createTestApp();
    const c = await signInPeople(t);
    const [first, second] = (await addRecords(t, SLUG_A, 2)) as [number, number];
    const photoId = await addStoredPhoto(t, first, 'gobernador');

    const answers = {
      list: await t.request({ url: `/api/validation/${SLUG_A}/records`, headers: { cookie: c.validatorA } }),
      summary: await t.request({ url: `/api/validation/${SLUG_A}/summary`, headers: { cookie: c.validatorA } }),
      photo: await t.request({ url: `/api/photos/${photoId}?variant=thumb`, headers: { cookie: c.validatorA } }),
      session: await t.request({ url: '/api/auth/session', headers: { cookie: c.validatorA } }),
      people: await t.request({ url: '/api/admin/users', headers: { cookie: c.admin } }),
      records: await t.request({ url: `/api/admin/records?department=${SLUG_A}`, headers: { cookie: c.admin } }),
      vote: await t.request({
        method: 'POST',
        url: `/api/validation/${SLUG_A}/records/${second}/vote`,
        headers: { cookie: c.validatorA },
        payload: { candidates: ['FA'] },
      }),
      // Refusals name people too ('ya fue votado por …').
      secondVote: await t.request({
        method: 'POST',
        url: `/api/validation/${SLUG_A}/records/${second}/vote`,
        headers: { cookie: c.admin },
        payload: { candidates: ['LC'] },
      }),
      signedOut: await t.request({ url: `/api/validation/${SLUG_A}/records` }),
      unknown: await t.request({ url: '/api/nada-por-aqui', headers: { cookie: c.validatorA } }),
    };
    expect(answers.photo.statusCode).toBe(200);
    expect(answers.secondVote.statusCode).toBe(409);
    for (const [name, res] of Object.entries(answers)) {
      expect({ name, cacheControl: res.headers['cache-control'] }).toEqual({ name, cacheControl: 'no-store' });
    }

    // A resumable upload is answered by the tus server outside Fastify's reply: the same rule holds.
    const { created, done } = await sendTusPhoto(
      t,
      c.validatorA,
      { slug: SLUG_A, recordId: second, kind: 'an', key: crypto.randomUUID() },
      fixture('ballot.jpg'),
    );
    expect(done?.statusCode).toBe(201);
    const head = await headTusUpload(t, c.validatorA, created.location);
    for (const res of [done, head]) expect(res?.headers['cache-control']).toBe('no-store');
  });

  it('lets campaign material that is the same for everyone be kept (candidate photos)', async () => {
    t = await createTestApp();
    const url = await addCandidatePhoto(t);
    const res = await t.request({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('asks the browser to forget its HTTP cache on sign-out, and nothing else (the outbox must survive)', async () => {
    t = await createTestApp();
    const c = await signInPeople(t);
    for (const url of ['/api/auth/logout', '/api/auth/logout-all']) {
      const cookie = url.endsWith('all') ? c.validatorB : c.validatorA;
      const res = await t.request({ method: 'POST', url, headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['clear-site-data']).toBe('"cache"');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    // Any other answer leaves the browser's data alone.
    const session = await t.request({ url: '/api/auth/session', headers: { cookie: c.admin } });
    expect(session.headers['clear-site-data']).toBeUndefined();
  });
});
