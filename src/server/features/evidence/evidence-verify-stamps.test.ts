import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPhotoStorage } from '#server/platform/storage/create-photo-storage';
import { requestTimestamp } from '#server/platform/timestamp/timestamp';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { startTimestampAuthority, type TimestampAuthority } from '#tests/support/timestamp-authority';
import { runEvidenceVerify } from './evidence.cli';
import { createEvidenceRepository } from './evidence.repository';
import { loadEvidenceKey } from './evidence-key';
import { type CloseEvidence, writeEvidencePackage } from './evidence-package';

/*
 * evidence:verify reads the package's time-stamps (decision 095): each must stamp the hash of the chain head
 * it claims, and that head must be the package's. A package signed by the server's own key with a stamp of
 * another head (an old stamp kept for a chain written again) is named.
 */

let t: TestApp | undefined;
let tsa: TimestampAuthority | undefined;
const folders: string[] = [];
afterEach(async () => {
  await t?.close();
  await tsa?.close();
  t = undefined;
  tsa = undefined;
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function closedDay() {
  tsa = await startTimestampAuthority();
  const now = new Date('2026-11-28T22:00:00.000Z');
  const app = await createTestApp({ now: () => now, evidence: { privateKeyPem: undefined, timestampUrl: tsa.url } });
  t = app;
  const c = await signInPeople(app);
  const [id] = await addRecords(app, SLUG_A, 1);
  const vote = await app.request({
    method: 'POST',
    url: `/api/validation/${SLUG_A}/records/${id}/vote`,
    headers: { cookie: c.validatorA },
    payload: { candidates: ['LC'] },
  });
  expect(vote.statusCode).toBe(201);
  const closed = await app.request({
    method: 'PUT',
    url: '/api/admin/election/phase',
    headers: { cookie: c.admin },
    payload: { phase: 'cerrada', reason: 'Cierre de mesas' },
  });
  expect(closed.statusCode, closed.body).toBe(200);
  return { app, admin: c.admin, url: tsa.url };
}

async function verifyFile(bytes: Buffer) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-sellos-'));
  folders.push(dir);
  const file = path.join(dir, 'paquete.zip');
  fs.writeFileSync(file, bytes);
  const out: string[] = [];
  const err: string[] = [];
  const code = await runEvidenceVerify(file, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A package signed with the server's key, as the server writes it, with the stamps given. */
async function packageWith(app: TestApp, stamps: { stamp?: Buffer; close?: CloseEvidence }) {
  const repo = createEvidenceRepository(app.db.kysely);
  const head = await repo.lastChained();
  if (!head) throw new Error('no chain');
  const { stream, done } = writeEvidencePackage({
    repo,
    storage: createPhotoStorage(app.config),
    key: loadEvidenceKey(app.config),
    department: SLUG_A,
    head,
    stamp: stamps.stamp,
    close: stamps.close,
    at: new Date('2026-11-28T22:30:00.000Z'),
  });
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  await done;
  return { bytes: Buffer.concat(chunks), head };
}

async function closeOf(app: TestApp) {
  const row = await app.db.kysely.selectFrom('election_close_snapshots').selectAll().executeTakeFirstOrThrow();
  const chainHead = (JSON.parse(row.counts) as { chainHead: { seq: number; hash: string } }).chainHead;
  const repo = createEvidenceRepository(app.db.kysely);
  return {
    closedAt: row.closed_at,
    takenAt: row.taken_at,
    chainHead,
    chainHeadRow: await repo.rowAt(chainHead.seq),
    stamp: row.stamp === null ? null : Buffer.from(row.stamp, 'base64'),
    stampedAt: row.stamped_at,
  } satisfies CloseEvidence;
}

describe('evidence:verify and the time-stamps of a package', () => {
  it('accepts the package the server makes after a stamped close: both stamps name its heads', async () => {
    const { app, admin } = await closedDay();
    const res = await app.request({
      url: `/api/admin/evidence/package.zip?department=${SLUG_A}`,
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    const result = await verifyFile(res.rawPayload);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
  });

  it("names an export stamp of another head than the package's", async () => {
    const { app, url } = await closedDay();
    const other = 'cd'.repeat(32);
    const { bytes, head } = await packageWith(app, { stamp: await requestTimestamp(url, other) });
    const result = await verifyFile(bytes);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(
      new RegExp(
        `sello-tiempo\\.tsr \\([^)]+\\) sella el hash ${other}, no el de cadena-cabeza\\.json \\(registro ${head.seq}, ${head.hash}\\)\\.`,
      ),
    );
  });

  it("names a close stamp of another head than the one cierre.json names, and a head the package's chain does not have", async () => {
    const { app, url } = await closedDay();
    const close = await closeOf(app);
    const earlier = await createEvidenceRepository(app.db.kysely).rowAt(close.chainHead.seq - 1);
    // An old stamp (of the row before) kept for the close's head.
    const stale = await packageWith(app, {
      close: { ...close, stamp: await requestTimestamp(url, earlier?.hash ?? '') },
    });
    const named = await verifyFile(stale.bytes);
    expect(named.code).toBe(1);
    expect(named.err).toContain(
      `sella el hash ${earlier?.hash}, no el de la cabeza que nombra cierre.json (registro ${close.chainHead.seq}, ${close.chainHead.hash}).`,
    );

    // A close that names a head whose row in the package gives another hash (the chain written again).
    const rewritten = 'ef'.repeat(32);
    const moved = await packageWith(app, { close: { ...close, chainHead: { ...close.chainHead, hash: rewritten } } });
    const result = await verifyFile(moved.bytes);
    expect(result.code).toBe(1);
    expect(result.err).toContain(`sello-cierre.tsr (`);
    expect(result.err).toContain(`sella el hash ${close.chainHead.hash}, no el de la cabeza que nombra cierre.json`);
    expect(result.err).toContain(
      `cierre.json: su fila de la cadena (registro ${close.chainHead.seq}, ${close.chainHead.hash}) no es la cabeza que nombra.`,
    );
  });
});
