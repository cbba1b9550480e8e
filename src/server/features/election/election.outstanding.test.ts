import { createHash, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, multipart } from '#server/testing/photos';
import { addRecords, PEOPLE, SLUG_A, SLUG_B, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { electionMessages } from '#shared/features/election/election';
import { PHOTO_SHA256_HEADER } from '#shared/features/photos/photos';
import { voteFingerprint } from '#shared/platform/era';

// 'Por llegar' after the close (decision 101): what phones reported before it and has not arrived, who may
// see it, an item leaving it when it arrives, and the grace's end.

let t: TestApp;
afterEach(async () => t?.close());

const NOON = new Date('2026-11-28T16:00:00Z');
let now = NOON;

const BALLOT = fixture('ballot.jpg');
const BALLOT_SHA = createHash('sha256').update(BALLOT).digest('hex');

async function setup(start = NOON) {
  now = start;
  t = await createTestApp({ now: () => now }, { electionPhase: 'en_curso' });
  const cookies = await signInPeople(t);
  const ids = await addRecords(t, SLUG_A, [
    { nombre: 'Ana Pérez' },
    { nombre: 'Bruno Díaz' },
    { nombre: 'Carla Ruiz' },
  ]);
  const idsB = await addRecords(t, SLUG_B, [{ nombre: 'Diego Soto' }]);
  return { cookies, ids, idsB };
}

interface ReportItem {
  key: string;
  recordId: number;
  slug?: string;
  kind?: 'vote' | 'gobernador';
  fingerprint?: string;
}

const report = (cookie: string, items: ReportItem[]) =>
  t.request({
    method: 'POST',
    url: '/api/field/reports',
    headers: { cookie },
    payload: {
      deviceId: '5b0c3f4e-8a51-4f5e-9d7a-2f0e9c1b7a11',
      deviceNow: now.toISOString(),
      lastSuccessAt: null,
      lastError: null,
      items: items.map((i) => ({
        key: i.key,
        slug: i.slug ?? SLUG_A,
        recordId: i.recordId,
        kind: i.kind ?? 'vote',
        savedAt: now.toISOString(),
        fingerprint: i.fingerprint ?? voteFingerprint(['FA']),
      })),
    },
  });

const vote = (cookie: string, id: number, key: string, slug = SLUG_A) =>
  t.request({
    method: 'POST',
    url: `/api/validation/${slug}/records/${id}/vote`,
    headers: { cookie, 'idempotency-key': key },
    payload: { candidates: ['FA'] },
  });

function photo(cookie: string, id: number, key: string) {
  const body = multipart({ data: BALLOT, filename: 'b.jpg', contentType: 'image/jpeg' });
  return t.request({
    method: 'POST',
    url: `/api/validation/${SLUG_A}/records/${id}/photos/gobernador`,
    headers: { ...body.headers, cookie, 'idempotency-key': key, [PHOTO_SHA256_HEADER]: BALLOT_SHA },
    payload: body.payload,
  });
}

const close = async (cookie: string, graceHours = 12) => {
  const grace = await t.request({
    method: 'PUT',
    url: '/api/admin/election/close',
    headers: { cookie },
    payload: { closesAt: null, graceHours, reason: 'Gracia para lo que esté en camino' },
  });
  expect(grace.statusCode, grace.body).toBe(200);
  const res = await t.request({
    method: 'PUT',
    url: '/api/admin/election/phase',
    headers: { cookie },
    payload: { phase: 'cerrada', reason: 'Cierre de mesas' },
  });
  expect(res.statusCode, res.body).toBe(200);
};

const outstanding = async (cookie: string) => {
  const res = await t.request({ url: '/api/election/outstanding', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** Each department's validators' items as 'slug email kind record'. */
const lines = (answer: {
  departments: { slug: string; validators: { email: string; items: { kind: string; record: string }[] }[] }[];
}) =>
  answer.departments.flatMap((d) =>
    d.validators.flatMap((v) => v.items.map((i) => `${d.slug} ${v.email} ${i.kind} ${i.record}`)),
  );

describe("'Por llegar' after the close", () => {
  it('is empty before the close, and asks for a session', async () => {
    const { cookies, ids } = await setup();
    expect((await report(cookies.validatorA, [{ key: randomUUID(), recordId: ids[0] as number }])).statusCode).toBe(
      200,
    );
    expect(await outstanding(cookies.admin)).toEqual({
      closedAt: null,
      graceEndsAt: null,
      generatedAt: now.toISOString(),
      total: 0,
      departments: [],
    });
    expect((await t.request({ url: '/api/election/outstanding' })).statusCode).toBe(401);
  });

  it('lists what was reported before the close and has not arrived: admins all, others their lists', async () => {
    const { cookies, ids, idsB } = await setup();
    const sentBefore = randomUUID();
    expect(
      (
        await report(cookies.validatorA, [
          { key: randomUUID(), recordId: ids[0] as number },
          { key: randomUUID(), recordId: ids[1] as number, kind: 'gobernador', fingerprint: BALLOT_SHA },
          { key: sentBefore, recordId: ids[2] as number },
        ])
      ).statusCode,
    ).toBe(200);
    expect(
      (await report(cookies.validatorB, [{ key: randomUUID(), recordId: idsB[0] as number, slug: SLUG_B }])).statusCode,
    ).toBe(200);
    // Sent before the close: it arrived, it is not expected.
    expect((await vote(cookies.validatorA, ids[2] as number, sentBefore)).statusCode).toBe(201);
    now = new Date(NOON.getTime() + 60_000);
    await close(cookies.admin);
    // A report after the close is heard of by nobody: nothing new is expected from it.
    now = new Date(NOON.getTime() + 5 * 60_000);
    expect(
      (await report(cookies.validatorA, [{ key: randomUUID(), recordId: ids[2] as number, kind: 'gobernador' }]))
        .statusCode,
    ).toBe(200);

    const all = await outstanding(cookies.admin);
    expect(all).toMatchObject({ closedAt: new Date(NOON.getTime() + 60_000).toISOString(), total: 3 });
    expect(lines(all)).toEqual([
      `${SLUG_A} ${PEOPLE.validatorA} vote Ana Pérez`,
      `${SLUG_A} ${PEOPLE.validatorA} gobernador Bruno Díaz`,
      `${SLUG_B} ${PEOPLE.validatorB} vote Diego Soto`,
    ]);
    expect(all.departments.map((d: { title: string }) => d.title)).toEqual(['Cabimas', 'Lagunillas']);
    expect(all.departments[0].validators[0].items[0]).toEqual({
      kind: 'vote',
      recordId: ids[0],
      record: 'Ana Pérez',
      heardAt: NOON.toISOString(),
    });

    const a = await outstanding(cookies.validatorA);
    expect([a.total, ...lines(a)]).toEqual([
      2,
      `${SLUG_A} ${PEOPLE.validatorA} vote Ana Pérez`,
      `${SLUG_A} ${PEOPLE.validatorA} gobernador Bruno Díaz`,
    ]);
    const b = await outstanding(cookies.validatorB);
    expect([b.total, ...lines(b)]).toEqual([1, `${SLUG_B} ${PEOPLE.validatorB} vote Diego Soto`]);
  });

  it('an item leaves the list when it arrives, and the late arrival is named by its record', async () => {
    const { cookies, ids } = await setup();
    const voteKey = randomUUID();
    const photoKey = randomUUID();
    await report(cookies.validatorA, [
      { key: voteKey, recordId: ids[0] as number },
      { key: photoKey, recordId: ids[1] as number, kind: 'gobernador', fingerprint: BALLOT_SHA },
    ]);
    now = new Date(NOON.getTime() + 60_000);
    await close(cookies.admin);
    now = new Date(NOON.getTime() + 30 * 60_000);
    expect((await outstanding(cookies.admin)).total).toBe(2);

    const late = await vote(cookies.validatorA, ids[0] as number, voteKey);
    expect(late.statusCode, late.body).toBe(201);
    const afterVote = await outstanding(cookies.admin);
    expect([afterVote.total, ...lines(afterVote)]).toEqual([1, `${SLUG_A} ${PEOPLE.validatorA} gobernador Bruno Díaz`]);

    now = new Date(NOON.getTime() + 31 * 60_000);
    const latePhoto = await photo(cookies.validatorA, ids[1] as number, photoKey);
    expect(latePhoto.statusCode, latePhoto.body).toBe(201);
    expect(await outstanding(cookies.admin)).toMatchObject({ total: 0, departments: [] });

    const admin = (await t.request({ url: '/api/admin/election', headers: { cookie: cookies.admin } })).json();
    expect(admin.late.map((l: { kind: string; title: string; record: string; by: string }) => l)).toEqual([
      expect.objectContaining({ kind: 'gobernador', title: 'Cabimas', record: 'Bruno Díaz', by: PEOPLE.validatorA }),
      expect.objectContaining({ kind: 'vote', title: 'Cabimas', record: 'Ana Pérez', by: PEOPLE.validatorA }),
    ]);
  });

  it('says until when it is accepted, and is empty once the grace is over', async () => {
    const { cookies, ids } = await setup(new Date('2026-11-28T21:00:00Z'));
    await report(cookies.validatorA, [{ key: randomUUID(), recordId: ids[0] as number }]);
    // The close at 6:00 p. m. in Caracas, twelve hours of grace: until 6:00 a. m.
    now = new Date('2026-11-28T22:00:00Z');
    await close(cookies.admin, 12);
    // Looked at during the night (a session goes after eight idle hours).
    now = new Date('2026-11-29T04:00:00Z');
    expect((await outstanding(cookies.admin)).total).toBe(1);
    now = new Date('2026-11-29T09:59:00Z');
    const during = await outstanding(cookies.admin);
    expect(during).toMatchObject({ graceEndsAt: '2026-11-29T10:00:00.000Z', total: 1 });
    expect(electionMessages.graceUntil(during.graceEndsAt)).toBe('Se aceptan hasta las 6:00 a. m.');

    now = new Date('2026-11-29T10:00:00Z');
    expect(await outstanding(cookies.admin)).toMatchObject({
      graceEndsAt: '2026-11-29T10:00:00.000Z',
      total: 0,
      departments: [],
    });
  });
});
