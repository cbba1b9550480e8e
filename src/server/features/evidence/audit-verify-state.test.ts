import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { auditRowHash } from '#server/platform/audit/audit-chain';
import { createPhotoStorage } from '#server/platform/storage/create-photo-storage';
import { fixture, uploadPhoto } from '#server/testing/photos';
import { addRecords, SLUG_A, SLUG_B, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { startTimestampAuthority, type TimestampAuthority } from '#tests/support/timestamp-authority';
import { runAuditVerify } from './evidence.cli';

/*
 * audit:verify against the numbers people read (decision 095): every counter, the close's kept counts, a
 * record's voided state and the day's phase changed with plain SQL, and a chain rewritten to its head
 * after a stamped close, are each named.
 */

let t: TestApp | undefined;
let tsa: TimestampAuthority | undefined;
afterEach(async () => {
  await t?.close();
  await tsa?.close();
  t = undefined;
  tsa = undefined;
});

const CLOSED_AT = '2026-11-28T22:00:00.000Z';

/** A day with votes in two departments, a photo, a correction, and the back office's voids and restores. */
async function day(options: { timestampUrl?: string } = {}) {
  let now = new Date('2026-11-28T21:40:00.000Z');
  const app = await createTestApp({
    now: () => now,
    ...(options.timestampUrl ? { evidence: { privateKeyPem: undefined, timestampUrl: options.timestampUrl } } : {}),
  });
  t = app;
  const c = await signInPeople(app);
  const [a1, a2, a3] = (await addRecords(app, SLUG_A, 3)) as [number, number, number];
  const [b1] = (await addRecords(app, SLUG_B, 1)) as [number];
  const vote = async (slug: string, id: number, candidates: string[], cookie: string) =>
    expect(
      (
        await app.request({
          method: 'POST',
          url: `/api/validation/${slug}/records/${id}/vote`,
          headers: { cookie },
          payload: { candidates },
        })
      ).statusCode,
    ).toBe(201);
  const admin = async (method: 'POST' | 'PUT', url: string, payload: object) => {
    const res = await app.request({ method, url, headers: { cookie: c.admin }, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  await vote(SLUG_A, a1, ['FA'], c.validatorA);
  await vote(SLUG_A, a2, ['FA', 'NR'], c.validatorA);
  now = new Date('2026-11-28T21:50:00.000Z');
  await vote(SLUG_A, a3, ['LC'], c.validatorA);
  await vote(SLUG_B, b1, [], c.validatorB);
  const photo = await uploadPhoto(
    app,
    { slug: SLUG_A, recordId: a1, kind: 'gobernador' },
    { data: fixture('ballot.jpg'), filename: 'ballot.jpg', contentType: 'image/jpeg' },
    c.validatorA,
  );
  expect(photo.statusCode).toBe(201);
  // The back office: a correction, a void whose vote no longer counts, one whose vote counts, a restore.
  await admin('PUT', `/api/admin/records/${a2}/vote`, { candidates: ['NR'], reason: 'Acta', voteRevision: 1 });
  await admin('POST', `/api/admin/records/${a3}/void`, { reason: 'Repetido', voteCounts: false });
  await admin('POST', `/api/admin/records/${a3}/restore`, { reason: 'No era repetido' });
  await admin('POST', `/api/admin/records/${b1}/void`, { reason: 'Mudado', voteCounts: true });
  return {
    a1,
    a2,
    a3,
    b1,
    app,
    at: (iso: string) => {
      now = new Date(iso);
    },
    close: async (at = CLOSED_AT) => {
      now = new Date(at);
      await admin('PUT', '/api/admin/election/phase', { phase: 'cerrada', reason: 'Cierre de mesas' });
    },
    reopen: () => admin('PUT', '/api/admin/election/phase', { phase: 'en_curso', reason: 'Corregir un acta' }),
  };
}

async function verify() {
  const app = t as TestApp;
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAuditVerify(app.db.kysely, createPhotoStorage(app.config), {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const exec = (query: ReturnType<typeof sql>) => query.execute((t as TestApp).db.kysely);

describe('audit:verify and what people read', () => {
  it('holds after votes, a correction, voids, a restore, a close, a reopening and a second close', async () => {
    const d = await day();
    expect(await verify()).toMatchObject({ code: 0 });
    await d.close();
    expect(await verify()).toMatchObject({ code: 0 });
    d.at('2026-11-28T22:05:00.000Z');
    await d.reopen();
    await d.close('2026-11-28T22:10:00.000Z');
    expect(await d.app.db.kysely.selectFrom('election_close_snapshots').select('closed_at').execute()).toHaveLength(2);
    const result = await verify();
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain('Todo coincide.');
  });

  it('names each counter changed with SQL: votes, ballots, a quarter of an hour, progress and photos', async () => {
    await day();
    const department = sql`(select id from departments where slug = ${SLUG_A})`;
    const fa = sql`(select id from candidates where code = 'FA')`;
    // The results page: FA's 1 vote in the first department becomes 501.
    await exec(
      sql`update candidate_totals set votes = votes + 500 where department_id = ${department} and candidate_id = ${fa}`,
    );
    await exec(sql`update vote_totals set ballots = ballots + 500 where department_id = ${department}`);
    await exec(
      sql`update quarter_totals set votes = votes + 7 where department_id = ${department} and candidate_id = ${fa}`,
    );
    await exec(
      sql`update record_counts set validated = validated + 3, total = total - 1 where department_id = ${department}`,
    );
    await exec(sql`update photo_totals set photos = photos + 2 where department_id = ${department}`);
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.err).toContain('Contadores que no coinciden con la cadena: 6');
    expect(result.err).toContain(`Contador ${SLUG_A}, votos de FA: guarda 501 y la cadena da 1.`);
    expect(result.err).toContain(`Contador ${SLUG_A}, boletas contadas: guarda 503 y la cadena da 3.`);
    expect(result.err).toContain(
      `Contador ${SLUG_A}, votos de FA en el cuarto de hora 2026-11-28T21:30 (UTC): guarda 8 y la cadena da 1.`,
    );
    expect(result.err).toContain(`Contador ${SLUG_A}, trámites pendientes: guarda 2 y la cadena da 3.`);
    expect(result.err).toContain(`Contador ${SLUG_A}, trámites validados: guarda 3 y la cadena da 0.`);
    expect(result.err).toContain(`Contador ${SLUG_A}, fotos recibidas: guarda 3 y la cadena da 1.`);
    expect(result.out).not.toContain('Todo coincide.');
  });

  it("names the close's kept counts changed with SQL", async () => {
    const d = await day();
    await d.close();
    const row = await d.app.db.kysely.selectFrom('election_close_snapshots').selectAll().executeTakeFirstOrThrow();
    const counts = JSON.parse(row.counts) as {
      ballots: { department_id: number; ballots: number }[];
      candidates: { department_id: number; candidate_id: number; votes: number }[];
      chainHead: { seq: number };
    };
    for (const b of counts.ballots) b.ballots += 500;
    for (const c of counts.candidates) c.votes += 1;
    await exec(sql`update election_close_snapshots set counts = ${JSON.stringify(counts)}`);
    const result = await verify();
    expect(result.code).toBe(1);
    const close = `El cierre de las ${CLOSED_AT}`;
    const at = `(en el registro ${counts.chainHead.seq})`;
    expect(result.err).toContain(`${close}, ${SLUG_A}, boletas contadas: guarda 503 y la cadena da 3 ${at}.`);
    // The void whose vote counts still counts in the second department's ballots.
    expect(result.err).toContain(`${close}, ${SLUG_B}, boletas contadas: guarda 501 y la cadena da 1 ${at}.`);
    expect(result.err).toContain(`${close}, ${SLUG_A}, votos de NR: guarda 2 y la cadena da 1 ${at}.`);
    // Nothing else was touched: the live counters agree.
    expect(result.err).not.toContain('Contador ');
  });

  it('names a void, a vote taken out of the results and a restore made with SQL', async () => {
    const d = await day();
    await exec(sql`update records set status = 'anulado', vote_counted = 0 where id = ${d.a1}`);
    await exec(sql`update records set status = 'pendiente', vote_counted = 1 where id = ${d.b1}`);
    await exec(sql`update records set vote_counted = 0 where id = ${d.a2}`);
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.err).toContain(`[${SLUG_A}] Registro ${d.a1} (${SLUG_A}): está anulado y la cadena dice pendiente.`);
    expect(result.err).toContain(
      `[${SLUG_A}] Registro ${d.a1} (${SLUG_A}): su voto no cuenta en los resultados y la cadena dice que cuenta.`,
    );
    expect(result.err).toContain(`[${SLUG_B}] Registro ${d.b1} (${SLUG_B}): está pendiente y la cadena dice anulado.`);
    expect(result.err).toContain(
      `[${SLUG_A}] Registro ${d.a2} (${SLUG_A}): su voto no cuenta en los resultados y la cadena dice que cuenta.`,
    );
  });

  it('names a vote moved to another quarter of an hour with SQL', async () => {
    const d = await day();
    await exec(sql`update records set voted_at = '2026-11-28T20:05:00.000Z' where id = ${d.a3}`);
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.err).toContain(
      `Registro ${d.a3} (${SLUG_A}): su voto es de las 2026-11-28T20:05:00.000Z y la cadena dice 2026-11-28T21:50:00.000Z.`,
    );
  });

  it('names a reopening made with SQL', async () => {
    const d = await day();
    await d.close();
    await exec(sql`update election set phase = 'en_curso', closed_at = null`);
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.err).toMatch(
      /Jornada: la fase guardada es «En curso» y la cadena dice «Cerrada» \(la cadena, registro \d+\)\./,
    );
    expect(result.err).toContain(`Jornada: el cierre guardado es ninguno y la cadena dice ${CLOSED_AT}`);
  });

  it('names the stamp of a close when the chain was rewritten to its head after it', async () => {
    tsa = await startTimestampAuthority();
    const d = await day({ timestampUrl: tsa.url });
    await d.close();
    const db = d.app.db.kysely;
    const snapshot = await db.selectFrom('election_close_snapshots').selectAll().executeTakeFirstOrThrow();
    expect(snapshot.stamp).not.toBeNull();
    const head = (JSON.parse(snapshot.counts) as { chainHead: { seq: number; hash: string } }).chainHead;

    // Whoever can write the database changes a vote before the close, in the record, its ballot and its audit
    // row, and rewrites every link from there to the head: the chain and the tables agree again.
    const voteRow = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'record.vote')
      .where('target', '=', `record:${d.a1}`)
      .executeTakeFirstOrThrow();
    await exec(sql`update audit_log set details = ${JSON.stringify({ candidates: ['LC'] })} where id = ${voteRow.id}`);
    await exec(sql`update records set vote_codes = 'LC' where id = ${d.a1}`);
    await exec(
      sql`update record_votes set candidate_id = (select id from candidates where code = 'LC') where record_id = ${d.a1}`,
    );
    const rows = await db.selectFrom('audit_log').selectAll().where('seq', '>=', voteRow.seq).orderBy('seq').execute();
    let prev = rows[0]?.prev_hash ?? '';
    for (const row of rows) {
      const hash = auditRowHash({ ...row, seq: row.seq as number, prev_hash: prev });
      await exec(sql`update audit_log set prev_hash = ${prev}, hash = ${hash} where id = ${row.id}`);
      prev = hash;
    }
    await exec(sql`update audit_chain_head set hash = ${prev} where id = 1`);

    const rewritten = await verify();
    expect(rewritten.code).toBe(1);
    expect(rewritten.err).not.toContain('Cadena:');
    expect(rewritten.err).toContain(`El cierre de las ${CLOSED_AT}: su sello de tiempo (`);
    expect(rewritten.err).toContain(
      `sella la cabeza ${head.seq} con hash ${head.hash} y la cadena tiene hoy otro en el registro ${head.seq}`,
    );

    // The close's head made to name the new hash too: the stamp still names the old one.
    const newHead = await db
      .selectFrom('audit_log')
      .select('hash')
      .where('seq', '=', head.seq)
      .executeTakeFirstOrThrow();
    await exec(
      sql`update election_close_snapshots set counts = ${snapshot.counts.replace(head.hash, newHead.hash ?? '')}`,
    );
    const both = await verify();
    expect(both.code).toBe(1);
    expect(both.err).toContain(
      `sella el hash ${head.hash}, no el de la cabeza que nombra (registro ${head.seq}, ${newHead.hash}).`,
    );
  });
});
