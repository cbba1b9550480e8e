import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, uploadPhoto } from '#server/testing/photos';
import { addRecords, SLUG_A, SLUG_B, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { runEvidenceVerify } from './evidence.cli';
import { verifyEvidencePackage } from './evidence-verify';

let t: TestApp;
const folders: string[] = [];
afterEach(async () => {
  await t?.close();
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs a command of the machine (Debian's unzip, sha256sum, openssl) in a folder; its exit code and output. */
function run(cwd: string, command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

async function exportedPackage(query = `?department=${SLUG_A}`) {
  t = await createTestApp();
  const c = await signInPeople(t);
  const [a1, a2] = await addRecords(t, SLUG_A, [{ nombre: 'Ana Pérez' }, { nombre: 'Luis Díaz' }]);
  await addRecords(t, SLUG_B, [{ nombre: 'De otro municipio' }]);
  const vote = (id: number, candidates: string[]) =>
    t.request({
      method: 'POST',
      url: `/api/validation/${SLUG_A}/records/${id}/vote`,
      headers: { cookie: c.validatorA },
      payload: { candidates },
    });
  expect((await vote(a1 as number, ['FA', 'NR'])).statusCode).toBe(201);
  expect((await vote(a2 as number, [])).statusCode).toBe(201);
  for (const kind of ['gobernador', 'an']) {
    const res = await uploadPhoto(
      t,
      { slug: SLUG_A, recordId: a1 as number, kind },
      { data: fixture('ballot.jpg'), filename: 'acta.jpg', contentType: 'image/jpeg' },
      c.validatorA,
    );
    expect(res.statusCode).toBe(201);
  }
  const res = await t.request({ url: `/api/admin/evidence/package.zip${query}`, headers: { cookie: c.admin } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-evidencias-'));
  folders.push(dir);
  const zip = path.join(dir, 'paquete.zip');
  fs.writeFileSync(zip, res.rawPayload);
  expect(run(dir, 'unzip', ['-q', 'paquete.zip', '-d', 'paquete']).code).toBe(0);
  return { zip, dir: path.join(dir, 'paquete'), cookies: c, a1: a1 as number };
}

const verifySignature = (dir: string) =>
  run(dir, 'openssl', [
    'pkeyutl',
    '-verify',
    '-pubin',
    '-inkey',
    'clave-publica.pem',
    '-rawin',
    '-in',
    'SHA256SUMS',
    '-sigfile',
    'SHA256SUMS.sig',
  ]);

describe('the evidence package', () => {
  it('passes sha256sum -c and openssl pkeyutl -verify as LEEME.txt says, and evidence:verify agrees', async () => {
    const { zip, dir, a1 } = await exportedPackage();
    const sums = run(dir, 'sha256sum', ['-c', '--strict', 'SHA256SUMS']);
    expect(sums.code, sums.out).toBe(0);
    const signature = verifySignature(dir);
    expect(signature.code, signature.out).toBe(0);
    expect(signature.out).toContain('Signature Verified Successfully');

    const readme = fs.readFileSync(path.join(dir, 'LEEME.txt'), 'utf8');
    expect(readme).toContain('sha256sum -c SHA256SUMS');
    expect(readme).toContain(
      'openssl pkeyutl -verify -pubin -inkey clave-publica.pem -rawin -in SHA256SUMS -sigfile SHA256SUMS.sig',
    );
    // The fingerprint LEEME.txt and the audit log name is the public key's, as openssl computes it.
    const der = spawnSync('openssl', ['pkey', '-pubin', '-in', 'clave-publica.pem', '-outform', 'DER'], { cwd: dir });
    const fingerprint = spawnSync('sha256sum', { input: der.stdout, encoding: 'utf8' }).stdout.split(' ')[0] as string;
    expect(readme).toContain(fingerprint);
    const announced = await t.db.kysely
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'evidence.key')
      .execute();
    expect(announced).toHaveLength(1);
    expect(announced[0]?.details).toContain(fingerprint);

    // Only the department asked for; votes with who and when; every photo as stored.
    const records = fs.readFileSync(path.join(dir, 'registros.csv'), 'utf8');
    expect(records).toContain('Ana Pérez');
    expect(records).toContain('FA NR');
    expect(records).toContain('validadora.a@example.org');
    expect(records).not.toContain('De otro municipio');
    const photos = fs.readdirSync(path.join(dir, 'fotos', SLUG_A));
    expect(photos).toHaveLength(2);
    expect(fs.readFileSync(path.join(dir, 'fotos', SLUG_A, photos[0] as string))).toEqual(fixture('ballot.jpg'));
    const audit = fs
      .readFileSync(path.join(dir, 'auditoria.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit.filter((r) => r.target === `record:${a1}`).map((r) => r.action)).toEqual([
      'record.vote',
      'photo.upload',
      'photo.upload',
    ]);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'cadena-cabeza.json'), 'utf8')).action).toBe('evidence.export');

    const out: string[] = [];
    expect(await runEvidenceVerify(zip, { out: (l) => out.push(l), err: (l) => out.push(l) })).toBe(0);
    expect(out.join('\n')).toContain(fingerprint);
  });

  it('fails sha256sum, openssl and evidence:verify when one byte of a photo or of SHA256SUMS changes', async () => {
    const { dir } = await exportedPackage();
    const photoDir = path.join(dir, 'fotos', SLUG_A);
    const photo = path.join(photoDir, fs.readdirSync(photoDir)[0] as string);
    const bytes = fs.readFileSync(photo);
    bytes[100] = (bytes[100] ?? 0) ^ 0x01;
    fs.writeFileSync(photo, bytes);
    const sums = run(dir, 'sha256sum', ['-c', 'SHA256SUMS']);
    expect(sums.code).not.toBe(0);
    expect(sums.out).toContain(path.relative(dir, photo));
    const rezipped = path.join(dir, '..', 'cambiado.zip');
    expect(run(dir, 'zip', ['-q', '-r', rezipped, '.']).code).toBe(0);
    const report = await verifyEvidencePackage(rezipped);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([`${path.relative(dir, photo)}: cambió (su SHA-256 no es el de SHA256SUMS).`]);

    const list = path.join(dir, 'SHA256SUMS');
    const text = fs.readFileSync(list);
    text[0] = text[0] === 0x61 ? 0x62 : 0x61;
    fs.writeFileSync(list, text);
    expect(verifySignature(dir).code).not.toBe(0);
    fs.rmSync(rezipped);
    expect(run(dir, 'zip', ['-q', '-r', rezipped, '.']).code).toBe(0);
    expect((await verifyEvidencePackage(rezipped)).problems).toContain('La firma de SHA256SUMS no es válida.');
  });

  it('names an audit row changed inside the package, even with SHA256SUMS made again', async () => {
    const { dir } = await exportedPackage();
    const file = path.join(dir, 'auditoria.jsonl');
    const changed = fs
      .readFileSync(file, 'utf8')
      .replace(String.raw`\"candidates\":[\"FA\",\"NR\"]`, String.raw`\"candidates\":[\"LC\"]`);
    expect(changed).not.toBe(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, changed);
    // SHA256SUMS made again for the changed file: only the signature and the row's own hash can tell.
    const line = run(dir, 'sha256sum', ['auditoria.jsonl']).out;
    const list = path.join(dir, 'SHA256SUMS');
    fs.writeFileSync(list, fs.readFileSync(list, 'utf8').replace(/^[0-9a-f]{64} {2}auditoria\.jsonl\n/m, line));
    expect(run(dir, 'sha256sum', ['-c', 'SHA256SUMS']).code).toBe(0);
    const zip = path.join(dir, '..', 'rehecho.zip');
    expect(run(dir, 'zip', ['-q', '-r', zip, '.']).code).toBe(0);
    const report = await verifyEvidencePackage(zip);
    expect(report.problems).toHaveLength(2);
    expect(report.problems[0]).toMatch(/^auditoria\.jsonl: la fila \d+ no da su hash \(fue cambiada\)\.$/);
    expect(report.problems[1]).toBe('La firma de SHA256SUMS no es válida.');
  });

  it('is named with the date and time in Caracas, not UTC', async () => {
    t = await createTestApp({ now: () => new Date('2026-11-29T01:05:00Z') });
    const c = await signInPeople(t);
    const res = await t.request({ url: '/api/admin/evidence/package.zip', headers: { cookie: c.admin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="evidencias-todos-2026-11-28-21-05.zip"');
  });

  it('is for admins, and refuses a municipality that does not exist', async () => {
    t = await createTestApp();
    const c = await signInPeople(t);
    expect(
      (await t.request({ url: '/api/admin/evidence/package.zip', headers: { cookie: c.validatorA } })).statusCode,
    ).toBe(404);
    const res = await t.request({
      url: '/api/admin/evidence/package.zip?department=no-existe',
      headers: { cookie: c.admin },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Ese municipio no existe.');
  });
});
