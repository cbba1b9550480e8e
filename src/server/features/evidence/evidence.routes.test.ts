import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#server/platform/config/config';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { chainCheckLabel } from '#shared/features/evidence/evidence';
import { evidenceKeyFile, loadEvidenceKey } from './evidence-key';

let t: TestApp;
afterEach(async () => t?.close());

describe('the chain in Auditoría', () => {
  it('says how far the last check verified the chain, and names what it found', async () => {
    t = await createTestApp({ now: () => new Date('2026-11-27T01:41:00Z') });
    const c = await signInPeople(t);
    const [id] = await addRecords(t, SLUG_A, 1);
    const vote = await t.request({
      method: 'POST',
      url: `/api/validation/${SLUG_A}/records/${id}/vote`,
      headers: { cookie: c.validatorA },
      payload: { candidates: ['FA'] },
    });
    expect(vote.statusCode).toBe(201);
    const state = async () =>
      (await t.request({ url: '/api/admin/evidence/chain', headers: { cookie: c.admin } })).json();
    const before = await state();
    expect(before).toMatchObject({ lastCheck: null, keyFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(before.headSeq).toBeGreaterThan(1);

    const check = () =>
      t.request({ method: 'POST', url: '/api/admin/evidence/chain/check', headers: { cookie: c.admin } });
    const checked = (await check()).json();
    expect(checked.lastCheck).toMatchObject({ ok: true, verifiedUpTo: before.headSeq, problems: 0 });
    expect(chainCheckLabel(checked.lastCheck)).toBe(
      `Cadena verificada hasta el registro ${before.headSeq}, 9:41 p. m.`,
    );

    await sql`update records set vote_codes = 'LC' where id = ${id}`.execute(t.db.kysely);
    const broken = (await check()).json();
    expect(broken.lastCheck).toMatchObject({ ok: false, problems: 1 });
    expect(broken.lastCheck.firstProblems[0]).toContain(
      `Registro ${id} (${SLUG_A}): su voto es «LC» y la cadena dice «FA»`,
    );
    expect((await t.request({ url: '/api/admin/evidence/chain', headers: { cookie: c.validatorA } })).statusCode).toBe(
      404,
    );
  });

  it("names a counter and the day's phase changed with SQL, as audit:verify does", async () => {
    t = await createTestApp({ now: () => new Date('2026-11-27T01:41:00Z') });
    const c = await signInPeople(t);
    const [id] = await addRecords(t, SLUG_A, 1);
    const vote = await t.request({
      method: 'POST',
      url: `/api/validation/${SLUG_A}/records/${id}/vote`,
      headers: { cookie: c.validatorA },
      payload: { candidates: ['FA'] },
    });
    expect(vote.statusCode).toBe(201);
    const closed = await t.request({
      method: 'PUT',
      url: '/api/admin/election/phase',
      headers: { cookie: c.admin },
      payload: { phase: 'cerrada', reason: 'Cierre de mesas' },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    await sql`update candidate_totals set votes = votes + 500`.execute(t.db.kysely);
    await sql`update election set phase = 'en_curso', closed_at = null`.execute(t.db.kysely);
    const checked = (
      await t.request({ method: 'POST', url: '/api/admin/evidence/chain/check', headers: { cookie: c.admin } })
    ).json();
    expect(checked.lastCheck).toMatchObject({ ok: false });
    expect(checked.lastCheck.firstProblems).toContain(`Contador ${SLUG_A}, votos de FA: guarda 501 y la cadena da 1.`);
    expect(checked.lastCheck.firstProblems.join('\n')).toContain(
      'Jornada: la fase guardada es «En curso» y la cadena dice «Cerrada»',
    );
  });
});

describe('the evidence key', () => {
  it('is made once in the data folder, readable by the server only, and kept across starts', async () => {
    t = await createTestApp();
    const first = loadEvidenceKey(t.config);
    expect(fs.statSync(evidenceKeyFile(t.config.dataDir)).mode & 0o777).toBe(0o600);
    expect(loadEvidenceKey(t.config).fingerprint).toBe(first.fingerprint);
    expect(first.source).toBe('carpeta de datos');
  });

  it('may come from the environment, checked at boot', () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const config = loadConfig({ EVIDENCE_PRIVATE_KEY: pem.replaceAll('\n', '\\n') });
    const key = loadEvidenceKey({ dataDir: '/nonexistent', evidence: config.evidence });
    expect(key.source).toBe('entorno');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    expect(() => loadConfig({ EVIDENCE_PRIVATE_KEY: rsa.toString() })).toThrow(ConfigError);
    expect(() => loadConfig({ EVIDENCE_PRIVATE_KEY: 'no es una clave' })).toThrow(
      /EVIDENCE_PRIVATE_KEY: debe ser una clave privada Ed25519 en PEM/,
    );
  });
});
