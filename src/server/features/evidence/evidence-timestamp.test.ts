import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { timestampRequest, timestampStatus } from '#server/platform/timestamp/timestamp';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { startTimestampAuthority, type TimestampAuthority } from '#tests/support/timestamp-authority';

let t: TestApp | undefined;
let tsa: TimestampAuthority | undefined;
const folders: string[] = [];
afterEach(async () => {
  await t?.close();
  await tsa?.close();
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const run = (cwd: string, command: string, args: string[]) => {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
};

async function withAuthority(timestampUrl: string) {
  t = await createTestApp({ evidence: { privateKeyPem: undefined, timestampUrl } });
  const c = await signInPeople(t);
  const [id] = await addRecords(t, SLUG_A, 1);
  const vote = await t.request({
    method: 'POST',
    url: `/api/validation/${SLUG_A}/records/${id}/vote`,
    headers: { cookie: c.validatorA },
    payload: { candidates: ['LC'] },
  });
  expect(vote.statusCode).toBe(201);
  const app = t;
  return () =>
    app.request({ url: `/api/admin/evidence/package.zip?department=${SLUG_A}`, headers: { cookie: c.admin } });
}

describe('the time-stamp of the chain head (RFC 3161)', () => {
  it('asks a DER request openssl reads as a SHA-256 imprint with a nonce and the certificate', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-tsq-'));
    folders.push(dir);
    fs.writeFileSync(path.join(dir, 'q.tsq'), timestampRequest('ab'.repeat(32)));
    const text = run(dir, 'openssl', ['ts', '-query', '-in', 'q.tsq', '-text']);
    expect(text.code, text.out).toBe(0);
    expect(text.out).toContain('Hash Algorithm: sha256');
    // openssl prints the imprint as a hex dump, 16 bytes a line.
    expect(text.out).toContain('0000 - ab ab ab ab ab ab ab ab-ab ab ab ab ab ab ab ab');
    expect(text.out).toContain('0010 - ab ab ab ab ab ab ab ab-ab ab ab ab ab ab ab ab');
    expect(text.out).toContain('Certificate required: yes');
    expect(text.out).toMatch(/Nonce: 0x[0-9A-F]+/);
  });

  it('travels in the package, and openssl ts -verify accepts it for the head hash', async () => {
    tsa = await startTimestampAuthority();
    const exportPackage = await withAuthority(tsa.url);
    const res = await exportPackage();
    expect(res.statusCode).toBe(200);
    expect(tsa.answered()).toBe(1);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-sello-'));
    folders.push(dir);
    fs.writeFileSync(path.join(dir, 'paquete.zip'), res.rawPayload);
    expect(run(dir, 'unzip', ['-q', 'paquete.zip']).code).toBe(0);
    expect(run(dir, 'sha256sum', ['-c', 'SHA256SUMS']).out).toContain('sello-tiempo.tsr: ');
    const head = JSON.parse(fs.readFileSync(path.join(dir, 'cadena-cabeza.json'), 'utf8'));
    const reply = fs.readFileSync(path.join(dir, 'sello-tiempo.tsr'));
    expect(timestampStatus(reply)).toBe(0);
    const verify = run(dir, 'openssl', [
      'ts',
      '-verify',
      '-digest',
      head.hash,
      '-in',
      'sello-tiempo.tsr',
      '-CAfile',
      tsa.caFile,
    ]);
    expect(verify.out).toContain('Verification: OK');
    expect(verify.code).toBe(0);
    const other = run(dir, 'openssl', [
      'ts',
      '-verify',
      '-digest',
      'cd'.repeat(32),
      '-in',
      'sello-tiempo.tsr',
      '-CAfile',
      tsa.caFile,
    ]);
    expect(other.code).not.toBe(0);
    expect(fs.readFileSync(path.join(dir, 'LEEME.txt'), 'utf8')).toContain(
      `openssl ts -verify -digest ${head.hash} -in sello-tiempo.tsr -CAfile tsa.pem`,
    );
  });

  it('stops the export with a clear reason when the authority does not answer', async () => {
    tsa = await startTimestampAuthority();
    const url = tsa.url;
    await tsa.close();
    tsa = undefined;
    const exportPackage = await withAuthority(url);
    const res = await exportPackage();
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe(
      'La autoridad de sellado de tiempo no respondió: el paquete no se generó. Inténtalo de nuevo en unos minutos.',
    );
  });
});

describe('the time-stamp of the chain head at the close', () => {
  const MINUTE = 60_000;

  async function closingDay(timestampUrl: string) {
    let now = new Date('2026-11-28T21:59:00.000Z');
    t = await createTestApp({ now: () => now, evidence: { privateKeyPem: undefined, timestampUrl } });
    const c = await signInPeople(t);
    const [id] = await addRecords(t, SLUG_A, 1);
    const app = t;
    const vote = await app.request({
      method: 'POST',
      url: `/api/validation/${SLUG_A}/records/${id}/vote`,
      headers: { cookie: c.validatorA },
      payload: { candidates: ['LC'] },
    });
    expect(vote.statusCode).toBe(201);
    return {
      later: (ms: number) => {
        now = new Date(now.getTime() + ms);
      },
      close: () =>
        app.request({
          method: 'PUT',
          url: '/api/admin/election/phase',
          headers: { cookie: c.admin },
          payload: { phase: 'cerrada', reason: 'Cierre de mesas' },
        }),
      jornada: async () => (await app.request({ url: '/api/admin/election', headers: { cookie: c.admin } })).json(),
      exportPackage: () =>
        app.request({ url: `/api/admin/evidence/package.zip?department=${SLUG_A}`, headers: { cookie: c.admin } }),
      closeHead: async () => {
        const row = await app.db.kysely.selectFrom('election_close_snapshots').selectAll().executeTakeFirstOrThrow();
        return { row, head: (JSON.parse(row.counts) as { chainHead: { seq: number; hash: string } }).chainHead };
      },
    };
  }

  const verifyStamp = (dir: string, reply: Buffer, hash: string, caFile: string) => {
    fs.writeFileSync(path.join(dir, 'cierre.tsr'), reply);
    return run(dir, 'openssl', ['ts', '-verify', '-digest', hash, '-in', 'cierre.tsr', '-CAfile', caFile]);
  };

  it("stamps the head the close's counts were taken at, keeps it with the close, and puts it in a later package", async () => {
    tsa = await startTimestampAuthority();
    const day = await closingDay(tsa.url);
    expect((await day.close()).statusCode).toBe(200);
    expect(tsa.answered()).toBe(1);

    const { row, head } = await day.closeHead();
    expect(row.stamp).not.toBeNull();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-sello-cierre-'));
    folders.push(dir);
    const verify = verifyStamp(dir, Buffer.from(row.stamp ?? '', 'base64'), head.hash, tsa.caFile);
    expect(verify.out).toContain('Verification: OK');
    expect(verifyStamp(dir, Buffer.from(row.stamp ?? '', 'base64'), 'cd'.repeat(32), tsa.caFile).code).not.toBe(0);
    expect((await day.jornada()).closeStamp).toEqual({ stampedAt: row.stamped_at, triedAt: null, error: null });

    // A package made after the close carries the close, its head and its stamp, checked by SHA256SUMS.
    const res = await day.exportPackage();
    expect(res.statusCode).toBe(200);
    fs.writeFileSync(path.join(dir, 'paquete.zip'), res.rawPayload);
    expect(run(dir, 'unzip', ['-q', 'paquete.zip']).code).toBe(0);
    const sums = run(dir, 'sha256sum', ['-c', 'SHA256SUMS']);
    expect(sums.code, sums.out).toBe(0);
    expect(sums.out).toContain('sello-cierre.tsr: ');
    const close = JSON.parse(fs.readFileSync(path.join(dir, 'cierre.json'), 'utf8'));
    expect(close).toMatchObject({ closedAt: '2026-11-28T21:59:00.000Z', chainHead: head });
    const inPackage = run(dir, 'openssl', [
      'ts',
      '-verify',
      '-digest',
      close.chainHead.hash,
      '-in',
      'sello-cierre.tsr',
      '-CAfile',
      tsa.caFile,
    ]);
    expect(inPackage.out).toContain('Verification: OK');
    expect(fs.readFileSync(path.join(dir, 'LEEME.txt'), 'utf8')).toContain(
      `openssl ts -verify -digest ${head.hash} -in sello-cierre.tsr -CAfile tsa.pem`,
    );
  });

  it('closes all the same when the authority is down, says so in Jornada, and stamps the close once it answers', async () => {
    tsa = await startTimestampAuthority();
    tsa.setDown(true);
    const day = await closingDay(tsa.url);
    const closed = await day.close();
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toMatchObject({ phase: 'cerrada' });
    const { row } = await day.closeHead();
    expect(row.stamp).toBeNull();
    expect((await day.jornada()).closeStamp).toMatchObject({ stampedAt: null, triedAt: '2026-11-28T21:59:00.000Z' });

    // Back in service: not asked again within the minute, then asked by the next look at Jornada.
    tsa.setDown(false);
    day.later(MINUTE - 1);
    expect((await day.jornada()).closeStamp.stampedAt).toBeNull();
    expect(tsa.answered()).toBe(0);
    day.later(1);
    expect((await day.jornada()).closeStamp).toEqual({
      stampedAt: '2026-11-28T22:00:00.000Z',
      triedAt: '2026-11-28T21:59:00.000Z',
      error: null,
    });
    const stamped = await day.closeHead();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-sello-cierre-'));
    folders.push(dir);
    expect(
      verifyStamp(dir, Buffer.from(stamped.row.stamp ?? '', 'base64'), stamped.head.hash, tsa.caFile).out,
    ).toContain('Verification: OK');
  });
});
