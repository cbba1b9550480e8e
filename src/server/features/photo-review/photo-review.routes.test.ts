import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { addStoredPhoto, fixture, uploadPhoto } from '#server/testing/photos';
import { addRecords, castVote, PEOPLE, SLUG_A, SLUG_B, signInPeople } from '#server/testing/records';
import { checkTotals } from '#server/testing/results';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import type { ReviewQueue, ReviewVerdict } from '#shared/features/photo-review/photo-review';
import { PHOTO_KINDS, type PhotoKind } from '#shared/platform/constants';
import type { ProcedureRecord } from '#shared/platform/records';

let t: TestApp;
let dataDir: string;
afterEach(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const REVIEWER = 'revisora@example.org';
const REVIEWER_2 = 'revisor.dos@example.org';

async function setup() {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-review-test-'));
  t = await createTestApp({ dataDir });
  const people = await signInPeople(t);
  await createUser(t.db, { email: REVIEWER, role: 'staff' });
  await createUser(t.db, { email: REVIEWER_2, role: 'staff' });
  for (const email of [REVIEWER, REVIEWER_2]) {
    const granted = await t.request({
      method: 'POST',
      url: '/api/photo-review/grants',
      headers: { cookie: people.admin },
      payload: { email, slug: SLUG_A },
    });
    expect(granted.statusCode).toBe(200);
  }
  return {
    ...people,
    reviewer: await sessionCookie(t, REVIEWER),
    reviewer2: await sessionCookie(t, REVIEWER_2),
  };
}

/** A voted record of `slug` with its three photos: validated, waiting in the review queue. */
async function validatedRecord(slug = SLUG_A): Promise<{ id: number; photos: Record<PhotoKind, number> }> {
  const [id] = (await addRecords(t, slug, 1)) as [number];
  await castVote(t, id, ['FA']);
  const photos = {} as Record<PhotoKind, number>;
  for (const kind of PHOTO_KINDS) photos[kind] = await addStoredPhoto(t, id, kind);
  return { id, photos };
}

const queue = (cookie: string, query = '') =>
  t.request({ url: `/api/photo-review/queue${query}`, headers: { cookie } });

const review = (
  cookie: string,
  id: number,
  verdicts: { kind: PhotoKind; photoId: number; verdict: ReviewVerdict; note?: string }[],
) => t.request({ method: 'POST', url: `/api/photo-review/records/${id}`, headers: { cookie }, payload: { verdicts } });

const allConforme = (photos: Record<PhotoKind, number>) =>
  PHOTO_KINDS.map((kind) => ({ kind, photoId: photos[kind], verdict: 'conforme' as const }));

/** The audit chain's check against the records, their photos and files (what audit:verify says). */
async function chainCheck(cookie: string) {
  const res = await t.request({ method: 'POST', url: '/api/admin/evidence/chain/check', headers: { cookie } });
  return res.json().lastCheck;
}

async function reviewedCount(slug = SLUG_A): Promise<number> {
  const row = await t.db.kysely
    .selectFrom('record_counts')
    .innerJoin('departments', 'departments.id', 'record_counts.department_id')
    .select(['reviewed', 'validated'])
    .where('departments.slug', '=', slug)
    .executeTakeFirstOrThrow();
  return Number(row.reviewed);
}

describe('who may review what', () => {
  it('a reviewer sees and reviews the municipalities given, not others, and never their own photos', async () => {
    const c = await setup();
    const a = await validatedRecord(SLUG_A);
    const b = await validatedRecord(SLUG_B);

    const page = await queue(c.reviewer);
    expect(page.statusCode).toBe(200);
    const body = page.json<ReviewQueue>();
    expect(body.items.map((i) => i.recordId)).toEqual([a.id]);
    expect(body.items[0]?.votes).toEqual(['FA']);
    expect(body.items[0]?.photos.map((p) => p.kind)).toEqual(['gobernador', 'an', 'clez']);
    expect(body.municipalities.map((m) => m.slug)).toEqual([SLUG_A]);

    // Another municipality: the same 404 as one that does not exist, for the queue and for a review.
    expect((await queue(c.reviewer, `?municipio=${SLUG_B}`)).statusCode).toBe(404);
    expect((await review(c.reviewer, b.id, allConforme(b.photos))).statusCode).toBe(404);
    // A validator who was named no reviewer has no queue, and may not review.
    expect((await queue(c.validatorA)).statusCode).toBe(404);
    expect((await review(c.validatorA, a.id, allConforme(a.photos))).statusCode).toBe(404);
    // The reviewer may see the photos they review (the files of a municipality they do not validate).
    expect((await t.request({ url: `/api/photos/${a.photos.an}`, headers: { cookie: c.reviewer } })).statusCode).toBe(
      200,
    );
    expect((await t.request({ url: `/api/photos/${b.photos.an}`, headers: { cookie: c.reviewer } })).statusCode).toBe(
      404,
    );
    // Admins review every municipality.
    const admin = (await queue(c.admin)).json<ReviewQueue>();
    expect(admin.items.map((i) => i.recordId).sort()).toEqual([a.id, b.id].sort());
    expect((await review(c.admin, b.id, allConforme(b.photos))).statusCode).toBe(200);

    // Their own uploads: not in their queue, and refused.
    await t.db.kysely.updateTable('photos').set({ uploaded_by: REVIEWER }).where('id', '=', a.photos.clez).execute();
    expect((await queue(c.reviewer)).json<ReviewQueue>().items).toEqual([]);
    const own = await review(c.reviewer, a.id, allConforme(a.photos));
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe('No puedes revisar fotos que tú mismo subiste.');

    // Only admins name reviewers; the grant is audited.
    const byStaff = await t.request({
      method: 'POST',
      url: '/api/photo-review/grants',
      headers: { cookie: c.reviewer },
      payload: { email: REVIEWER, slug: SLUG_B },
    });
    expect(byStaff.statusCode).toBe(404);
    expect((await listAudit(t.db.kysely, { action: 'review.grant' })).map((r) => r.target).sort()).toEqual(
      [REVIEWER, REVIEWER_2].sort(),
    );
  });
});

describe('a review', () => {
  it("all 'conforme': the record is reviewed, leaves the queue, counts as reviewed, with its audit row", async () => {
    const c = await setup();
    const a = await validatedRecord();
    const res = await review(c.reviewer, a.id, allConforme(a.photos));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ reopened: false, reviewed: true });
    expect((await queue(c.reviewer)).json<ReviewQueue>().items).toEqual([]);
    expect(await reviewedCount()).toBe(1);
    const [row] = await listAudit(t.db.kysely, { action: 'photo.review' });
    expect(row?.actor_email).toBe(REVIEWER);
    expect(row?.target).toBe(`record:${a.id}`);
    expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
  });

  it('two reviewers on one record at once: one wins, the other is told', async () => {
    const c = await setup();
    const a = await validatedRecord();
    const answers = await Promise.all([
      review(c.reviewer, a.id, allConforme(a.photos)),
      review(c.reviewer2, a.id, [
        { kind: 'gobernador', photoId: a.photos.gobernador, verdict: 'ilegible' },
        { kind: 'an', photoId: a.photos.an, verdict: 'conforme' },
        { kind: 'clez', photoId: a.photos.clez, verdict: 'conforme' },
      ]),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const lost = answers.find((r) => r.statusCode === 409);
    expect(lost?.json().message).toBe(
      'Otra persona acaba de revisar este trámite (o cambió una de sus fotos). Pasa al siguiente.',
    );
    const reviews = await t.db.kysely.selectFrom('photo_reviews').selectAll().execute();
    expect(reviews).toHaveLength(3);
    expect(new Set(reviews.map((r) => r.reviewed_by)).size).toBe(1);
    expect(await listAudit(t.db.kysely, { action: 'photo.review' })).toHaveLength(1);
    expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
  });

  it('a review and a correction that clears the vote, at once, 20 rounds: the counters follow what was stored', async () => {
    const c = await setup();
    for (let round = 0; round < 20; round++) {
      const a = await validatedRecord();
      const [reviewed, cleared] = await Promise.all([
        review(c.reviewer, a.id, allConforme(a.photos)),
        t.request({
          method: 'PUT',
          url: `/api/admin/records/${a.id}/vote`,
          headers: { cookie: c.admin },
          payload: { candidates: null, reason: 'Voto registrado por error', voteRevision: 1 },
        }),
      ]);
      // The correction always lands (it names the vote it corrects); the review lands only before it.
      expect(cleared.statusCode).toBe(200);
      expect([200, 409]).toContain(reviewed.statusCode);
      expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
    }
    // Every record was unvoted in the end: none counts as reviewed.
    expect(await reviewedCount()).toBe(0);
  });
});

describe('back to the phone', () => {
  it("'Ilegible' reopens the slot: the card asks again, a new photo fills it, the old one stays in history", async () => {
    const c = await setup();
    const a = await validatedRecord();
    const res = await review(c.reviewer, a.id, [
      { kind: 'gobernador', photoId: a.photos.gobernador, verdict: 'ilegible', note: 'Borrosa, no se leen los votos' },
      { kind: 'an', photoId: a.photos.an, verdict: 'conforme' },
      { kind: 'clez', photoId: a.photos.clez, verdict: 'conforme' },
    ]);
    expect(res.json()).toMatchObject({ reopened: true, reviewed: false });
    expect((await checkTotals(t.db.kysely)).differences).toEqual([]);
    expect(await chainCheck(c.admin)).toMatchObject({ ok: true, problems: 0 });
    // Out of the queue while the slot waits; the validator's card asks for another photo, with the note.
    expect((await queue(c.reviewer)).json<ReviewQueue>().items).toEqual([]);
    const list = await t.request({ url: `/api/validation/${SLUG_A}/records`, headers: { cookie: c.validatorA } });
    const card = (list.json() as { items: ProcedureRecord[] }).items.find((r) => r.id === a.id);
    expect(card?.validated).toBe(false);
    expect(card?.photos.gobernador).toBeNull();
    expect(card?.retakes).toEqual({ gobernador: { reason: 'ilegible', note: 'Borrosa, no se leen los votos' } });

    // The phone's new photo fills the slot: the record is validated again and back in the queue.
    const upload = await uploadPhoto(
      t,
      { slug: SLUG_A, recordId: a.id, kind: 'gobernador' },
      { data: fixture('ballot.jpg'), filename: 'otra.jpg', contentType: 'image/jpeg' },
      c.validatorA,
    );
    expect(upload.statusCode).toBe(201);
    const back = (await queue(c.reviewer)).json<ReviewQueue>();
    expect(back.items.map((i) => i.recordId)).toEqual([a.id]);
    const photos = back.items[0]?.photos ?? [];
    const newGobernador = photos.find((p) => p.kind === 'gobernador');
    expect(newGobernador?.id).not.toBe(a.photos.gobernador);
    expect(newGobernador?.verdict).toBeNull();
    expect(photos.find((p) => p.kind === 'an')?.verdict).toBe('conforme');
    const after = (
      (await t.request({ url: `/api/validation/${SLUG_A}/records`, headers: { cookie: c.validatorA } })).json() as {
        items: ProcedureRecord[];
      }
    ).items.find((r) => r.id === a.id);
    expect(after?.retakes).toBeUndefined();

    // The old photo is kept, with its review: the slot's history.
    const history = await t.db.kysely
      .selectFrom('photos')
      .leftJoin('photo_reviews', 'photo_reviews.photo_id', 'photos.id')
      .select(['photos.id', 'photo_reviews.verdict', 'photo_reviews.note'])
      .where('photos.record_id', '=', a.id)
      .where('photos.kind', '=', 'gobernador')
      .orderBy('photos.id')
      .execute();
    expect(history).toEqual([
      { id: a.photos.gobernador, verdict: 'ilegible', note: 'Borrosa, no se leen los votos' },
      { id: newGobernador?.id, verdict: null, note: null },
    ]);

    // The reviewer approves the new photo: reviewed now.
    const approve = await review(c.reviewer, a.id, [
      { kind: 'gobernador', photoId: newGobernador?.id ?? 0, verdict: 'conforme' },
    ]);
    expect(approve.json()).toMatchObject({ reviewed: true });
    expect(await reviewedCount()).toBe(1);
    expect((await checkTotals(t.db.kysely)).differences).toEqual([]);

    // The validated records' CSV says each slot's review, reviewer and time.
    const csv = await t.request({ url: '/api/results/validated.csv', headers: { cookie: c.admin } });
    const row = csv.body.split('\r\n').find((l) => l.startsWith(`${a.id};`));
    expect(row).toMatch(new RegExp(`(;Conforme;${REVIEWER};\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}){3}$`));

    // The chain's check follows the slot emptied and filled again.
    expect(await chainCheck(c.admin)).toMatchObject({ ok: true, problems: 0 });

    // The evidence package holds both photos of the slot, each with its review.
    const pkg = await t.request({
      url: `/api/admin/evidence/package.zip?department=${SLUG_A}`,
      headers: { cookie: c.admin },
    });
    expect(pkg.statusCode).toBe(200);
    const zip = path.join(dataDir, 'paquete.zip');
    fs.writeFileSync(zip, pkg.rawPayload);
    expect(spawnSync('unzip', ['-q', zip, '-d', path.join(dataDir, 'paquete')]).status).toBe(0);
    const index = fs.readFileSync(path.join(dataDir, 'paquete', 'fotos.csv'), 'utf8');
    const line = (id: number) => index.split(/\r?\n/).find((l) => l.startsWith(`${id};`) || l.startsWith(`"${id}";`));
    expect(line(a.photos.gobernador)).toContain('ilegible');
    expect(line(a.photos.gobernador)).toContain('Borrosa, no se leen los votos');
    expect(line(a.photos.gobernador)).toContain(REVIEWER);
    expect(line(newGobernador?.id ?? 0)).toContain('conforme');
    expect(line(a.photos.an)).toContain('conforme');
  });
});

describe('the queue', () => {
  it('oldest vote first, a page at a time by its cursor, by municipality', async () => {
    const c = await setup();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await validatedRecord()).id);
    const first = (await queue(c.reviewer, `?municipio=${SLUG_A}&limite=2`)).json<ReviewQueue>();
    expect(first.items.map((i) => i.recordId)).toEqual(ids.slice(0, 2));
    expect(first.waiting).toBe(3);
    const second = (
      await queue(c.reviewer, `?municipio=${SLUG_A}&limite=2&despues=${encodeURIComponent(first.next ?? '')}`)
    ).json<ReviewQueue>();
    expect(second.items.map((i) => i.recordId)).toEqual(ids.slice(2));
    expect(second.next).toBeNull();
  });
});

void PEOPLE;
