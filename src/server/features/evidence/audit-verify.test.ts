import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { createPhotoStorage, dataRoot } from '#server/platform/storage/create-photo-storage';
import { fixture, uploadPhoto } from '#server/testing/photos';
import { addRecords, SLUG_A, SLUG_B, signInPeople } from '#server/testing/records';
import { createTestApp, setElectionPhase, type TestApp } from '#server/testing/test-app';
import { verifyAuditChain } from './audit-verify';
import { runAuditVerify } from './evidence.cli';

let t: TestApp;
afterEach(async () => t?.close());

const vote = (slug: string, id: number, candidates: string[], cookie: string) =>
  t.request({
    method: 'POST',
    url: `/api/validation/${slug}/records/${id}/vote`,
    headers: { cookie },
    payload: { candidates },
  });

/** Two departments with votes, one record with a photo, a few other audited changes between them. */
async function election() {
  t = await createTestApp();
  const c = await signInPeople(t);
  const [a1, a2] = await addRecords(t, SLUG_A, 2);
  const [b1] = await addRecords(t, SLUG_B, 1);
  expect((await vote(SLUG_A, a1 as number, ['FA'], c.validatorA)).statusCode).toBe(201);
  expect((await vote(SLUG_A, a2 as number, ['LC', 'NR'], c.validatorA)).statusCode).toBe(201);
  expect((await vote(SLUG_B, b1 as number, [], c.validatorB)).statusCode).toBe(201);
  const photo = await uploadPhoto(
    t,
    { slug: SLUG_A, recordId: a1 as number, kind: 'gobernador' },
    { data: fixture('ballot.jpg'), filename: 'ballot.jpg', contentType: 'image/jpeg' },
    c.validatorA,
  );
  expect(photo.statusCode).toBe(201);
  return {
    a1: a1 as number,
    a2: a2 as number,
    b1: b1 as number,
    photoId: photo.json().photo.id as number,
    admin: c.admin,
  };
}

async function verify() {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAuditVerify(t.db.kysely, createPhotoStorage(t.config), {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const seqOf = async (action: string, target: string) =>
  (
    await t.db.kysely
      .selectFrom('audit_log')
      .select('seq')
      .where('action', '=', action)
      .where('target', '=', target)
      .executeTakeFirstOrThrow()
  ).seq as number;

describe('the audit chain', () => {
  it('links every row to the one before it, from 1 without gaps, and the untouched chain verifies', async () => {
    const { a1 } = await election();
    const rows = await t.db.kysely
      .selectFrom('audit_log')
      .select(['seq', 'prev_hash', 'hash'])
      .orderBy('seq')
      .execute();
    expect(rows.length).toBeGreaterThan(6);
    rows.forEach((row, i) => {
      expect(row.seq).toBe(i + 1);
      expect(row.prev_hash).toBe(i === 0 ? '0'.repeat(64) : rows[i - 1]?.hash);
      expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    });
    const report = await verifyAuditChain(t.db.kysely, { storage: createPhotoStorage(t.config) });
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({ ok: true, rows: rows.length, verifiedUpTo: rows.length, photosChecked: 1 });
    const result = await verify();
    expect(result.code).toBe(0);
    expect(result.out).toContain('Todo coincide.');
    expect(a1).toBeGreaterThan(0);
  });

  it('names a vote changed with plain SQL, by record and department', async () => {
    const { a2, b1 } = await election();
    await sql`update records set vote_codes = 'FA' where id = ${a2}`.execute(t.db.kysely);
    await sql`delete from record_votes where record_id = ${b1}`.execute(t.db.kysely);
    await sql`insert into record_votes (record_id, candidate_id, created_at) select ${b1}, id, 'x' from candidates where code = 'NR'`.execute(
      t.db.kysely,
    );
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.err).toContain(`[${SLUG_A}] Registro ${a2} (${SLUG_A}): su voto es «FA» y la cadena dice «LC, NR».`);
    expect(result.err).toContain(`[${SLUG_B}] Registro ${b1} (${SLUG_B}): las papeletas contadas dicen «NR»`);
    expect(result.err).not.toContain('Cadena:');
  });

  it('names the first broken link when a row is deleted, changed or inserted', async () => {
    const { a1, a2 } = await election();
    const deleted = await seqOf('record.vote', `record:${a2}`);
    await sql`delete from audit_log where seq = ${deleted}`.execute(t.db.kysely);
    const changed = await seqOf('record.vote', `record:${a1}`);
    await sql`update audit_log set details = '{"candidates":["NR"]}' where seq = ${changed}`.execute(t.db.kysely);
    await sql`insert into audit_log (at, actor_email, action, target) values ('2026-11-27T12:00:00.000Z', 'intruso@example.org', 'record.vote', 'record:99')`.execute(
      t.db.kysely,
    );
    const result = await verify();
    expect(result.code).toBe(1);
    expect(changed).toBeLessThan(deleted);
    expect(result.err).toContain(`el primero, en el registro ${changed}`);
    expect(result.err).toContain(`El registro ${changed} de la cadena fue cambiado`);
    expect(result.err).toContain(`Falta el registro ${deleted} de la cadena (borrado)`);
    expect(result.err).toContain('Registro insertado fuera de la cadena');
    // What the changed row now says disagrees with the record; the deleted vote leaves one unexplained.
    expect(result.err).toContain(`Registro ${a1} (${SLUG_A}): su voto es «FA» y la cadena dice «NR»`);
    expect(result.err).toContain(`Registro ${a2} (${SLUG_A}): su voto es «LC, NR» y la cadena dice «sin voto»`);
  });

  it('names rows removed from the end of the chain and rows appended after its head', async () => {
    await election();
    const last = (await t.db.kysely.selectFrom('audit_chain_head').select('seq').executeTakeFirstOrThrow()).seq;
    await sql`delete from audit_log where seq = ${last}`.execute(t.db.kysely);
    expect((await verify()).err).toContain(`Faltan los registros ${last} a ${last} al final de la cadena`);
  });

  it('names a photo whose file bytes changed', async () => {
    const { a1, photoId } = await election();
    const photo = await t.db.kysely
      .selectFrom('photos')
      .select('original_key')
      .where('id', '=', photoId)
      .executeTakeFirstOrThrow();
    const file = path.join(dataRoot(t.config.dataDir), 'photos', photo.original_key);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0xff;
    fs.writeFileSync(file, bytes);
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.err).toContain(
      `Registro ${a1} (${SLUG_A}), foto gobernador: el archivo de la foto ${photoId} cambió`,
    );
  });

  it('names a photo file gone without a purge, and takes files removed by a purge of personal data as the chain says', async () => {
    const { a1, photoId, admin } = await election();
    const photo = await t.db.kysely
      .selectFrom('photos')
      .select('original_key')
      .where('id', '=', photoId)
      .executeTakeFirstOrThrow();
    const file = path.join(dataRoot(t.config.dataDir), 'photos', photo.original_key);
    fs.rmSync(file);
    const gone = await verify();
    expect(gone.code).toBe(1);
    expect(gone.err).toContain(`Registro ${a1} (${SLUG_A}), foto gobernador: falta el archivo de la foto ${photoId}`);

    // 'Borrar datos personales' with the photos removed: its audit row says so, and the chain holds.
    await setElectionPhase(t.db, 'cerrada', new Date());
    const purged = await t.request({
      method: 'POST',
      url: '/api/admin/records/purge',
      headers: { cookie: admin },
      payload: { photos: 'remove', confirm: 'BORRAR DATOS PERSONALES' },
    });
    expect(purged.statusCode, purged.body).toBe(200);
    expect(await verify()).toMatchObject({ code: 0 });
  });

  it("holds after a drill: what 'Terminar simulacro' erased is what the chain says was of the drill", async () => {
    t = await createTestApp({}, { electionPhase: 'simulacro' });
    const c = await signInPeople(t);
    const [a1] = await addRecords(t, SLUG_A, 1);
    expect((await vote(SLUG_A, a1 as number, ['FA'], c.validatorA)).statusCode).toBe(201);
    const photo = await uploadPhoto(
      t,
      { slug: SLUG_A, recordId: a1 as number, kind: 'gobernador' },
      { data: fixture('ballot.jpg'), filename: 'ballot.jpg', contentType: 'image/jpeg' },
      c.validatorA,
    );
    expect(photo.statusCode).toBe(201);
    const ended = await t.request({
      method: 'POST',
      url: '/api/admin/election/drill/end',
      headers: { cookie: c.admin },
      payload: { votes: 1, photos: 1, reason: 'Fin de la práctica' },
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await verify()).toMatchObject({ code: 0 });
  });

  it('keeps one chain when audit rows are written at the same time outside and inside transactions', async () => {
    t = await createTestApp();
    // The app's start wrote its own rows (the evidence key's fingerprint).
    const before = (await verifyAuditChain(t.db.kysely)).rows;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        writeAudit(t.db.kysely, { actorEmail: 'a@example.org', action: `prueba.${i}` }),
      ),
    );
    const report = await verifyAuditChain(t.db.kysely);
    expect(report).toMatchObject({ ok: true, rows: before + 20, lastSeq: before + 20 });
  });
});
