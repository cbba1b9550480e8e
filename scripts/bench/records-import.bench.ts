// The records CSV import at its target size: a 100,000-row file sent to the real server (SQLite) as a
// browser sends it, first as the dry run and then imported for good, on a database that already holds
// records. Prints each run's time, the server process's CPU time and its peak resident memory.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { fakeRecords, seededRandom } from '#server/integrations/demo/records.fake';
import { createUser } from '#server/testing/auth-helpers';
import { writeImportCsv } from '#server/testing/records-import-fixtures';
import { cpuSeconds, statusKb } from './process-memory';
import type { BenchSuite } from './types';

const EMAIL = 'bench.registros@comando.example';
const PASSWORD = 'clave-de-rendimiento-123';
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const EXISTING = 50_000;
const DEPARTMENTS = ['cabimas', 'lagunillas', 'mara', 'san-francisco', 'sucre', 'baralt', 'miranda', 'colon'];
// The budget on a 2-core machine (docs/decisions/068): 100,000 rows in at most 5 s and 300 MB.
const TARGET_S = 5;
const TARGET_MB = 300;

async function signIn(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${res.status}: ${await res.text()}`);
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error('login sin cookie');
  return cookie;
}

/** Sends the file from disk as multipart/form-data, never holding it whole; answers status and body. */
function upload(origin: string, cookie: string, file: string, mode: string): Promise<{ status: number; body: string }> {
  const boundary = `----comandobench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="registros-100k.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + fs.statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${origin}/api/admin/records/import?mode=${mode}`,
      {
        method: 'POST',
        headers: {
          origin,
          cookie,
          accept: 'application/json',
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(length),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.write(head);
    const stream = fs.createReadStream(file);
    stream.on('error', reject);
    stream.on('end', () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}

async function measureImport(origin: string, serverPid: number): Promise<Record<string, unknown>[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-bench-import-'));
  const file = path.join(dir, 'registros-100k.csv');
  try {
    const bytes = await writeImportCsv(file, ROWS, { departments: DEPARTMENTS, start: 1_000_000 });
    const cookie = await signIn(origin);
    console.log(`servidor en reposo: RSS ${(statusKb(serverPid, 'VmRSS') / 1024).toFixed(0)} MB`);
    const rows: Record<string, unknown>[] = [];
    for (const mode of ['simulacion', 'importar'] as const) {
      let peakKb = statusKb(serverPid, 'VmRSS');
      const sampler = setInterval(() => {
        peakKb = Math.max(peakKb, statusKb(serverPid, 'VmRSS'));
      }, 20);
      const started = performance.now();
      const cpuBefore = cpuSeconds(serverPid);
      const res = await upload(origin, cookie, file, mode);
      const seconds = (performance.now() - started) / 1000;
      const cpu = cpuSeconds(serverPid) - cpuBefore;
      clearInterval(sampler);
      peakKb = Math.max(peakKb, statusKb(serverPid, 'VmRSS'));
      const report = res.status < 300 ? JSON.parse(res.body).report : undefined;
      const expected = mode === 'simulacion' ? 200 : 201;
      const complete = res.status === expected && report?.valid === ROWS && report?.invalid === 0;
      const peakMb = peakKb / 1024;
      console.log(
        `importación ${mode}: ${ROWS.toLocaleString('es')} filas (${(bytes / 1024 / 1024).toFixed(1)} MB) en ${seconds.toFixed(2)} s (CPU del servidor ${cpu.toFixed(2)} s), ` +
          `RSS máx. del servidor ${peakMb.toFixed(0)} MB (VmHWM de por vida ${(statusKb(serverPid, 'VmHWM') / 1024).toFixed(0)} MB)` +
          (complete ? '' : ` — respuesta ${res.status}: ${res.body.slice(0, 300)}`),
      );
      rows.push({
        suite: 'Importación de registros',
        caso: `POST /api/admin/records/import?mode=${mode}: ${ROWS.toLocaleString('es')} filas, ${(bytes / 1024 / 1024).toFixed(1)} MB`,
        conexiones: 1,
        'tiempo s': Number(seconds.toFixed(2)),
        'CPU s': Number(cpu.toFixed(2)),
        'RSS máx. MB': Math.round(peakMb),
        objetivo: `< ${TARGET_S} s y < ${TARGET_MB} MB, todas las filas`,
        errores: complete ? 0 : 1,
        ok: complete && seconds < TARGET_S && peakMb < TARGET_MB ? 'sí' : 'NO',
      });
    }
    return rows;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const suite: BenchSuite = {
  name: 'Importación de registros (CSV)',
  async seed(db, now) {
    await createUser(db, { email: EMAIL, role: 'admin', password: PASSWORD });
    // Records already there: the import checks every row against them (same name and phone).
    const repo = createRecordsRepository(db.kysely);
    const ids = new Map((await repo.listMunicipalities()).map((d) => [d.slug, d.id]));
    const random = seededRandom(3);
    for (const [i, slug] of DEPARTMENTS.entries()) {
      await repo.insertMany(fakeRecords(ids.get(slug) as number, i, EXISTING / DEPARTMENTS.length, random), now);
    }
  },
  cases: [],
  extra: measureImport,
};
