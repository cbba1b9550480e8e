// The Airtable import at the size: a 20,000-record base (one in seven already voted, a few
// photo links) and its agenda, served by the local Airtable contract server, imported twice by the real
// command (`npm run cli -- airtable:import`, token from the environment) into a throwaway SQLite
// database. Checks the pace from the server's own arrival times (never more than 5 requests in any
// second, no 429), that the first run creates everything and the second changes nothing.
// `npm run bench -- airtable`, or on its own: `tsx scripts/bench/airtable.bench.ts`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type AirtableContractServer,
  makeAirtableAgenda,
  makeAirtableRecords,
  startAirtableContractServer,
} from '../../tests/support/airtable-contract-server';
import type { BenchSuite } from './types';

const RECORDS = Number(process.env.BENCH_AIRTABLE_RECORDS ?? 20_000);
const EVENTS = 60;
const PHOTOS = 30;
const ROOT = path.resolve(import.meta.dirname, '../..');

interface RunResult {
  seconds: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the operators' command as an operator would, in a child process. */
function runImport(dataDir: string, server: AirtableContractServer): Promise<RunResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['src/server/cli.ts', 'airtable:import'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        COMANDO_DEMO: '0',
        NODE_ENV: 'production',
        PUBLIC_ORIGIN: 'http://127.0.0.1:3000',
        AIRTABLE_TOKEN: server.token,
        AIRTABLE_BASE_ID: server.baseId,
        AIRTABLE_API_URL: server.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ seconds: (performance.now() - started) / 1000, code, stdout, stderr }));
  });
}

/** The numbers of the report's records line: read, created, updated, unchanged, skipped. */
function recordsLine(stdout: string): number[] | undefined {
  const line = stdout.split('\n').find((l) => l.startsWith('Trámites'));
  return line
    ?.match(/[\d.]+(?= (leídos|creados|actualizados|sin cambios|omitidos))/g)
    ?.map((n) => Number(n.replaceAll('.', '')));
}

export async function measureAirtableImport(): Promise<Record<string, unknown>[]> {
  const records = makeAirtableRecords(RECORDS, { votedEvery: 7 });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-bench-airtable-'));
  const server = await startAirtableContractServer({ tables: { Zulia: records, agenda: makeAirtableAgenda(EVENTS) } });
  try {
    const photo = fs.readFileSync(path.join(ROOT, 'tests/fixtures/ballot.jpg'));
    for (let i = 0; i < PHOTOS; i++) {
      (records[Math.floor((i * RECORDS) / PHOTOS)] as { fields: Record<string, unknown> }).fields.gobernador =
        server.addFile(`g${i}.jpg`, photo);
    }
    server.setTable('Zulia', records);
    const rows: Record<string, unknown>[] = [];
    for (const run of ['primera', 'segunda'] as const) {
      const before = server.requests.length;
      const result = await runImport(dataDir, server);
      const requests = server.requests.slice(before);
      const numbers = recordsLine(result.stdout);
      const [read, created, updated] = numbers ?? [];
      const expectedCreated = run === 'primera' ? RECORDS : 0;
      const paced = server.maxRequestsInWindow(1_000) <= 5 && requests.every((r) => r.status !== 429);
      const complete = result.code === 0 && read === RECORDS && created === expectedCreated && updated === 0;
      if (!complete) console.log(result.stdout, result.stderr.slice(-2_000));
      const span = requests.length > 1 ? ((requests.at(-1)?.at ?? 0) - (requests[0]?.at ?? 0)) / 1000 : 0;
      rows.push({
        suite: 'Importación desde Airtable',
        caso: `airtable:import ${run} vez: ${RECORDS.toLocaleString('es')} trámites y ${EVENTS} eventos`,
        'tiempo s': Number(result.seconds.toFixed(1)),
        solicitudes: requests.length,
        'req/s': span > 0 ? Number(((requests.length - 1) / span).toFixed(2)) : 0,
        'máx. en 1 s': server.maxRequestsInWindow(1_000),
        informe: numbers ? `${created} creados, ${updated} actualizados` : 'sin informe',
        objetivo: `≤ 5 req/s, sin 429; ${expectedCreated} creados, 0 actualizados`,
        errores: complete ? 0 : 1,
        ok: paced && complete ? 'sí' : 'NO',
      });
    }
    return rows;
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export const suite: BenchSuite = {
  name: 'Importación desde Airtable',
  cases: [],
  extra: () => measureAirtableImport(),
};

if (process.argv[1]?.endsWith('airtable.bench.ts')) {
  console.table(await measureAirtableImport());
}
