import { createHash, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { HEARD_KEYS_PER_PERSON } from '#server/core/election/election';
import { fixture, multipart } from '#server/testing/photos';
import { addRecords, PEOPLE, SLUG_A, SLUG_B, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { createTusUpload, patchTusUpload } from '#server/testing/tus';
import type { ElectionPhase } from '#shared/features/election/election';
import { PHOTO_SHA256_HEADER } from '#shared/features/photos/photos';
import { ITEM_ERA_HEADER, voteFingerprint } from '#shared/platform/era';

// What a phone's report may vouch for after the close, and what a drill's era never becomes (decision 094).

let t: TestApp;
afterEach(async () => t?.close());

const NOON = new Date('2026-11-28T16:00:00Z');
let now = NOON;
const later = (minutes: number) => {
  now = new Date(now.getTime() + minutes * 60_000);
};

async function setup(phase: ElectionPhase | null = 'en_curso') {
  now = NOON;
  t = await createTestApp({ now: () => now }, { electionPhase: phase });
  const cookies = await signInPeople(t);
  const ids = await addRecords(t, SLUG_A, 6);
  const idsB = await addRecords(t, SLUG_B, 2);
  return { cookies, ids, idsB };
}

const BALLOT = fixture('ballot.jpg');
const BALLOT_SHA = createHash('sha256').update(BALLOT).digest('hex');

interface Sent {
  key?: string;
  era?: string;
  slug?: string;
}

const vote = (cookie: string, id: number, sent: Sent = {}, candidates = ['FA']) =>
  t.request({
    method: 'POST',
    url: `/api/validation/${sent.slug ?? SLUG_A}/records/${id}/vote`,
    headers: {
      cookie,
      'idempotency-key': sent.key ?? randomUUID(),
      ...(sent.era ? { [ITEM_ERA_HEADER]: sent.era } : {}),
    },
    payload: { candidates },
  });

function photo(cookie: string, id: number, sent: Sent = {}, data = BALLOT) {
  const body = multipart({ data, filename: 'b.jpg', contentType: 'image/jpeg' });
  return t.request({
    method: 'POST',
    url: `/api/validation/${SLUG_A}/records/${id}/photos/gobernador`,
    headers: {
      ...body.headers,
      cookie,
      'idempotency-key': sent.key ?? randomUUID(),
      [PHOTO_SHA256_HEADER]: createHash('sha256').update(data).digest('hex'),
      ...(sent.era ? { [ITEM_ERA_HEADER]: sent.era } : {}),
    },
    payload: body.payload,
  });
}

interface ReportItem {
  key: string;
  recordId: number;
  slug?: string;
  kind?: 'vote' | 'gobernador';
  fingerprint?: string;
  era?: string | null;
}

const report = (cookie: string, items: ReportItem[], options: { deviceNow?: Date; deviceId?: string } = {}) =>
  t.request({
    method: 'POST',
    url: '/api/field/reports',
    headers: { cookie },
    payload: {
      deviceId: options.deviceId ?? '5b0c3f4e-8a51-4f5e-9d7a-2f0e9c1b7a11',
      deviceNow: (options.deviceNow ?? now).toISOString(),
      lastSuccessAt: null,
      lastError: null,
      items: items.map((i) => ({
        key: i.key,
        slug: i.slug ?? SLUG_A,
        recordId: i.recordId,
        kind: i.kind ?? 'vote',
        savedAt: now.toISOString(),
        fingerprint: i.fingerprint ?? voteFingerprint(['FA']),
        ...(i.era === undefined ? {} : { era: i.era }),
      })),
    },
  });

const phase = (cookie: string, to: ElectionPhase, reason = 'Cambio de prueba') =>
  t.request({ method: 'PUT', url: '/api/admin/election/phase', headers: { cookie }, payload: { phase: to, reason } });

async function endDrill(cookie: string) {
  const admin = (await t.request({ url: '/api/admin/election', headers: { cookie } })).json();
  const res = await t.request({
    method: 'POST',
    url: '/api/admin/election/drill/end',
    headers: { cookie },
    payload: { votes: admin.drill.votes, photos: admin.drill.photos, reason: 'Fin del ensayo' },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** The era the phone is told in its report's answer. */
async function eraOf(cookie: string) {
  const res = await report(cookie, []);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().era as { id: string; drill: boolean } | null;
}

const heardKeys = async (email?: string) => {
  let query = t.db.kysely.selectFrom('election_heard_keys').select('item_key');
  if (email) query = query.where('user_email', '=', email);
  return (await query.execute()).length;
};

const CLOSED = 'La jornada cerró a las 12:30 p. m.';

describe('after the close, a key vouches only for what the phone reported under it', () => {
  it('refuses made-up keys: another municipality’s record, a record that does not exist, a phone clock a year off', async () => {
    const { cookies, ids, idsB } = await setup();
    const forB = randomUUID();
    const missing = randomUUID();
    const yearOff = randomUUID();
    const firstRecord = randomUUID();
    const aYearAgo = new Date(now.getTime() - 365 * 24 * 3_600_000);
    // The record of another municipality, named as if it were A's, and as B's (not the validator's).
    await report(cookies.validatorA, [
      { key: forB, recordId: idsB[0] as number },
      { key: randomUUID(), recordId: idsB[1] as number, slug: SLUG_B },
      { key: missing, recordId: 999_999 },
      { key: firstRecord, recordId: 1 },
    ]);
    await report(cookies.validatorA, [{ key: yearOff, recordId: ids[0] as number, fingerprint: 'vote:LC' }], {
      deviceNow: aYearAgo,
    });
    later(30);
    await phase(cookies.admin, 'cerrada', 'Cierre');
    later(10);
    const tries = [
      await vote(cookies.validatorA, idsB[0] as number, { key: forB }),
      await vote(cookies.validatorA, ids[1] as number, { key: forB }),
      await vote(cookies.validatorA, ids[2] as number, { key: missing }),
      await vote(cookies.validatorA, ids[3] as number, { key: firstRecord }),
      // Its ballot is not the one reported.
      await vote(cookies.validatorA, ids[0] as number, { key: yearOff }),
      await photo(cookies.validatorA, ids[4] as number, { key: forB }),
    ];
    for (const res of tries) expect([res.statusCode, res.json().message]).toEqual([409, CLOSED]);
    const results = (await t.request({ url: '/api/results', headers: { cookie: cookies.admin } })).json();
    expect(results.ballots).toBe(0);
  });

  it('refuses a key another person reported', async () => {
    const { cookies, ids } = await setup();
    const key = randomUUID();
    await report(cookies.validatorA, [{ key, recordId: ids[0] as number }]);
    later(30);
    await phase(cookies.admin, 'cerrada', 'Cierre');
    // The admin may open A's records, but the key was heard from validator A's phone.
    const res = await vote(cookies.admin, ids[0] as number, { key });
    expect([res.statusCode, res.json().message]).toEqual([409, CLOSED]);
    const own = await vote(cookies.validatorA, ids[0] as number, { key });
    expect(own.statusCode, own.body).toBe(201);
  });

  it('refuses another ballot or another photo under a heard key, and takes the reported one as late', async () => {
    const { cookies, ids } = await setup();
    const voteKey = randomUUID();
    const photoKey = randomUUID();
    const otherPhotoKey = randomUUID();
    await report(cookies.validatorA, [
      { key: voteKey, recordId: ids[0] as number, fingerprint: voteFingerprint(['LC', 'FA']) },
      { key: photoKey, recordId: ids[1] as number, kind: 'gobernador', fingerprint: BALLOT_SHA },
      { key: otherPhotoKey, recordId: ids[2] as number, kind: 'gobernador', fingerprint: 'a'.repeat(64) },
    ]);
    later(30);
    await phase(cookies.admin, 'cerrada', 'Cierre');
    later(10);
    const wrongBallot = await vote(cookies.validatorA, ids[0] as number, { key: voteKey }, ['FA']);
    expect([wrongBallot.statusCode, wrongBallot.json().message]).toEqual([409, CLOSED]);
    // The same ballot, whatever the order of its boxes.
    const ballot = await vote(cookies.validatorA, ids[0] as number, { key: randomUUID() }, ['FA', 'LC']);
    expect(ballot.statusCode).toBe(409);
    const reported = await vote(cookies.validatorA, ids[0] as number, { key: voteKey }, ['FA', 'LC']);
    expect(reported.statusCode, reported.body).toBe(201);

    const otherPhoto = await photo(cookies.validatorA, ids[2] as number, { key: otherPhotoKey });
    expect([otherPhoto.statusCode, otherPhoto.json().message]).toEqual([409, CLOSED]);
    // The reported photo's key on another record's slot.
    const elsewhere = await photo(cookies.validatorA, ids[3] as number, { key: photoKey });
    expect(elsewhere.statusCode).toBe(409);
    const taken = await photo(cookies.validatorA, ids[1] as number, { key: photoKey });
    expect(taken.statusCode, taken.body).toBe(201);
    const status = (await t.request({ url: '/api/election', headers: { cookie: cookies.validatorA } })).json();
    expect(status.lateArrivals).toBe(2);
  });

  it('keeps at most what one person’s phones could hold, and forgets heard keys at the drill’s end, the grace’s end and the purge', async () => {
    const { cookies, ids } = await setup('preparacion');
    const devices = Array.from({ length: 6 }, () => randomUUID());
    for (const deviceId of devices) {
      const items = Array.from({ length: 500 }, (_, i) => ({ key: randomUUID(), recordId: ids[i % 6] as number }));
      expect((await report(cookies.validatorA, items, { deviceId })).statusCode).toBe(200);
    }
    expect(await heardKeys(PEOPLE.validatorA)).toBe(HEARD_KEYS_PER_PERSON);
    // The drill's end forgets them.
    await phase(cookies.admin, 'simulacro', 'Ensayo');
    await report(cookies.validatorA, [{ key: randomUUID(), recordId: ids[0] as number }]);
    await endDrill(cookies.admin);
    expect(await heardKeys()).toBe(0);

    // The grace's end forgets them (the next report after it).
    await phase(cookies.admin, 'en_curso', 'Empieza');
    await report(cookies.validatorA, [{ key: randomUUID(), recordId: ids[0] as number }]);
    await t.request({
      method: 'PUT',
      url: '/api/admin/election/close',
      headers: { cookie: cookies.admin },
      payload: { closesAt: null, graceHours: 1, reason: 'Una hora de gracia' },
    });
    await phase(cookies.admin, 'cerrada', 'Cierre');
    // Heard after the close: kept nowhere.
    await report(cookies.validatorA, [{ key: randomUUID(), recordId: ids[1] as number }]);
    expect(await heardKeys()).toBe(1);
    later(61);
    await report(cookies.validatorA, [{ key: randomUUID(), recordId: ids[1] as number }]);
    expect(await heardKeys()).toBe(0);

    // The purge forgets them.
    await t.db.kysely
      .insertInto('election_heard_keys')
      .values({ item_key: randomUUID(), user_email: PEOPLE.validatorA, heard_at: now.toISOString() })
      .execute();
    const purge = await t.request({
      method: 'POST',
      url: '/api/admin/records/purge',
      headers: { cookie: cookies.admin },
      payload: { photos: 'keep', confirm: 'BORRAR DATOS PERSONALES' },
    });
    expect(purge.statusCode, purge.body).toBe(200);
    expect(await heardKeys()).toBe(0);
  });
});

describe('an item made during a drill is never real', () => {
  it('answers 410 to a drill vote, photo and tus upload sent after the drill, by their era, whatever the server heard', async () => {
    const { cookies, ids } = await setup('preparacion');
    await phase(cookies.admin, 'simulacro', 'Ensayo');
    const drill = await eraOf(cookies.validatorA);
    expect(drill?.drill).toBe(true);
    const era = drill?.id as string;
    // During the drill: one vote sent, the others saved offline; a tus upload begun, half its bytes sent.
    expect((await vote(cookies.validatorA, ids[0] as number, { era })).statusCode).toBe(201);
    const heardKey = randomUUID();
    await report(cookies.validatorA, [{ key: heardKey, recordId: ids[1] as number, era }]);
    const upload = await createTusUpload(t, cookies.validatorA, {
      slug: SLUG_A,
      recordId: ids[3] as number,
      kind: 'gobernador',
      size: BALLOT.length,
      sha256: BALLOT_SHA,
    });
    expect(upload.status, upload.body).toBe(201);
    const half = Math.floor(BALLOT.length / 2);
    expect((await patchTusUpload(t, cookies.validatorA, upload.location, 0, BALLOT.subarray(0, half))).statusCode).toBe(
      204,
    );
    await endDrill(cookies.admin);
    const after = await eraOf(cookies.validatorA);
    expect(after).toEqual({ id: expect.any(String), drill: false });
    expect(after?.id).not.toBe(era);

    const drillItem = (res: { statusCode: number; json: () => { message: string } }) =>
      expect([res.statusCode, res.json().message]).toEqual([410, 'Era del simulacro']);
    // Preparación: a drill vote is 'Era del simulacro', not 'en preparación'.
    drillItem(await vote(cookies.validatorA, ids[1] as number, { key: heardKey, era }));
    await phase(cookies.admin, 'en_curso', 'Empieza');
    drillItem(await vote(cookies.validatorA, ids[1] as number, { key: heardKey, era }));
    drillItem(await vote(cookies.validatorA, ids[2] as number, { era }));
    drillItem(await photo(cookies.validatorA, ids[2] as number, { era }));
    drillItem(await patchTusUpload(t, cookies.validatorA, upload.location, half, BALLOT.subarray(half)));
    // After the close, a drill item reported before it is no late arrival either.
    const reportedKey = randomUUID();
    await report(cookies.validatorA, [
      { key: reportedKey, recordId: ids[4] as number, era },
      { key: randomUUID(), recordId: ids[5] as number },
    ]);
    await phase(cookies.admin, 'cerrada', 'Cierre');
    drillItem(await vote(cookies.validatorA, ids[4] as number, { key: reportedKey, era }));
    drillItem(await photo(cookies.validatorA, ids[4] as number, { era }));

    const results = (await t.request({ url: '/api/results', headers: { cookie: cookies.admin } })).json();
    expect(results.ballots).toBe(0);
    const photos = await t.db.kysely.selectFrom('photos').select('id').execute();
    expect(photos).toEqual([]);
    // An item of the real day's era is taken as ever.
    await phase(cookies.admin, 'en_curso', 'Reabre');
    expect((await vote(cookies.validatorA, ids[5] as number, { era: after?.id })).statusCode).toBe(201);
  });
});
