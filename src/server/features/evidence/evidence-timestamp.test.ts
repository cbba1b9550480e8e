import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { startTimestampAuthority, type TimestampAuthority } from '#tests/support/timestamp-authority';
import { timestampRequest, timestampStatus } from './timestamp';

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
