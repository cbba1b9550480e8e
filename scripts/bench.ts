// `npm run bench`: for each suite in scripts/bench/*.bench.ts, starts the real server on a throwaway
// SQLite database (or the one the suite starts) with the suite's data, drives each case with autocannon from this process (after a
// warm-up run) and prints one table against the targets. `npm run bench -- <suite words>` filters.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { migrateToLatest, openDatabase } from '#server/platform/db/database';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { createSettingsRepository } from '#server/platform/settings/settings.repository';
import { setElectionPhase } from '#server/testing/election';
import { type ServerProcess, startServerProcess } from '#server/testing/server-process';
import { SECOND_FACTOR_SETTING } from '#shared/features/auth/second-factor';
import { cpuSeconds, statusKb } from './bench/process-memory';
import type { BenchCase, BenchSuite } from './bench/types';

// BENCH_PORT: another port when 4390 is taken (several benchmarks on one machine).
const PORT = Number(process.env.BENCH_PORT ?? 4390);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
// BENCH_CPU_PROF=<folder>: the server writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;
const filter = process.argv.slice(2).join(' ').toLowerCase();
// BENCH_CASE=<words>: only the cases whose name holds them, without the suite's extras (to profile or
// measure one case at a time).
const caseFilter = process.env.BENCH_CASE?.toLowerCase();

async function runCase(suite: string, c: BenchCase, serverPid: number | undefined, seconds = DURATION_S) {
  const requests = await c.requests(ORIGIN);
  const run = () => autocannon({ url: ORIGIN, connections: c.connections, duration: seconds, requests });
  await autocannon({ url: ORIGIN, connections: c.connections, duration: 1, requests }); // warm-up, discarded
  const cpuBefore = serverPid ? cpuSeconds(serverPid) : 0;
  const result = await run();
  // The server's CPU per answered request: on a shared machine it moves much less than the rate does.
  const cpuUs = serverPid ? Math.round(((cpuSeconds(serverPid) - cpuBefore) * 1e6) / result.requests.total) : undefined;
  const errors = result.errors + result.non2xx + result.timeouts;
  const rps = Math.round(result.requests.average);
  const ok = result.latency.p99 < c.targetP99 && errors === 0 && (c.targetRps === undefined || rps >= c.targetRps);
  return {
    suite,
    caso: c.name,
    conexiones: c.connections,
    'req/s': rps,
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'CPU µs/req': cpuUs,
    objetivo: `p99 < ${c.targetP99} ms${c.targetRps ? `, ≥ ${c.targetRps} req/s` : ''}`,
    errores: errors,
    ok: ok ? 'sí' : 'NO',
  };
}

const dir = path.join(import.meta.dirname, 'bench');
const suites: BenchSuite[] = [];
for (const file of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()) {
  const mod = (await import(path.join(dir, file))) as { suite: BenchSuite };
  if (!filter || `${file} ${mod.suite.name}`.toLowerCase().includes(filter)) suites.push(mod.suite);
}

// The server runs apart from this process (and a suite's PostgreSQL as a daemon): a crash (an error
// thrown outside any await, a stand-in's failed listen) or Ctrl-C stops them too before leaving.
let cleanUp: (() => Promise<void>) | undefined;
const bail = (why: unknown) => {
  console.error(why);
  void (cleanUp?.() ?? Promise.resolve()).finally(() => process.exit(1));
};
process.once('uncaughtException', bail);
process.once('unhandledRejection', bail);
process.once('SIGINT', () => bail('Interrumpido (SIGINT)'));
process.once('SIGTERM', () => bail('Interrumpido (SIGTERM)'));

const rows: Record<string, unknown>[] = [];
for (const suite of suites) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-bench-'));
  let server: ServerProcess | undefined;
  cleanUp = async () => {
    await server?.stop();
    await suite.teardown?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const databaseUrl = await suite.database?.();
    const db = await openDatabase({ dataDir, databaseUrl });
    const now = new Date();
    await migrateToLatest(db);
    await seedReferenceData(db, now);
    // The day under way: the suites vote and send photos (a new database starts in Preparación).
    await setElectionPhase(db, 'en_curso', now);
    // The server runs as in production, where admins need a second factor by default (decision 080):
    // the suites' admins sign in with their password alone.
    await createSettingsRepository(db.kysely).set(SECOND_FACTOR_SETTING, '0', now);
    const seeded = Date.now();
    await suite.seed?.(db, now, dataDir);
    await db.close();
    console.log(`${suite.name}: datos listos en ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
    server = await startServerProcess({
      port: PORT,
      dataDir,
      name: 'de pruebas de rendimiento',
      env: { NODE_ENV: 'production', ...suite.env, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
      nodeArgs: CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(CPU_PROF_DIR)}`] : [],
    });
    const pid = server.child.pid;
    let peakMb = 0;
    const sampler =
      suite.peakMemory && pid
        ? setInterval(() => {
            peakMb = Math.max(peakMb, statusKb(pid, 'VmRSS') / 1024);
          }, 100)
        : undefined;
    const cases = suite.cases.filter((c) => !caseFilter || c.name.toLowerCase().includes(caseFilter));
    for (const c of cases) rows.push(await runCase(suite.name, c, pid, suite.seconds));
    if (sampler && pid) {
      clearInterval(sampler);
      // The kernel's own high-water mark catches a peak between two samples.
      peakMb = Math.max(peakMb, statusKb(pid, 'VmHWM') / 1024);
      rows.push({
        suite: suite.name,
        caso: 'memoria residente máx. del servidor (VmHWM)',
        'p50 ms': `${Math.round(peakMb)} MiB`,
        objetivo: '≤ 400 MiB',
        ok: peakMb <= 400 ? 'sí' : 'NO',
      });
    }
    if (suite.extra && !caseFilter && server.child.pid)
      rows.push(...(await suite.extra(ORIGIN, server.child.pid, dataDir)));
  } finally {
    await cleanUp();
    cleanUp = undefined;
  }
}
console.table(rows);
if (rows.some((r) => r.ok === 'NO')) console.log('Algún caso no alcanzó su objetivo (ver la columna ok).');
