// `npm run bench`: starts the real server on a throwaway SQLite database with known data, drives
// each endpoint with autocannon from this process, and prints a table against the targets.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { migrateToLatest, openDatabase } from '../src/server/db/database';
import { seedReferenceData } from '../src/server/db/seed/reference';
import { createAgendaRepository } from '../src/server/features/agenda/agenda.repository';
import { createNotasRepository } from '../src/server/features/notas/notas.repository';
import { dateInTimeZone } from '../src/shared/format';

const PORT = 4390;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);

export interface BenchCase {
  name: string;
  connections: number;
  /** p99 target in milliseconds. */
  targetP99: number;
  request: () => autocannon.Request;
}

async function seed(dataDir: string): Promise<void> {
  const db = await openDatabase({ dataDir, databaseUrl: undefined });
  const now = new Date();
  await migrateToLatest(db);
  await seedReferenceData(db, now);
  const agenda = createAgendaRepository(db.kysely);
  const today = dateInTimeZone(now);
  for (let i = 0; i < 12; i++) {
    await agenda.insert(
      { fecha: today, hora24h: `${String(7 + i).padStart(2, '0')}:00`, descripcion: `Evento ${i}`, lugar: 'Maracaibo' },
      now,
    );
  }
  const notas = createNotasRepository(db.kysely);
  const body =
    '<h2>Título</h2><p>Texto con <strong>negritas</strong> y <a href="https://example.org">enlace</a>.</p><ul><li>uno</li><li>dos</li></ul>'.repeat(
      4,
    );
  for (let i = 0; i < 200; i++) {
    await notas.insert(
      { title: `Nota ${i}`, html: body, publishedAt: new Date(now.getTime() - i * 60_000).toISOString() },
      now,
    );
  }
  await db.close();
}

async function startServer(dataDir: string): Promise<ChildProcess> {
  const child = spawn(path.join('node_modules', '.bin', 'tsx'), ['src/server/server.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      COMANDO_DEMO: '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      PUBLIC_ORIGIN: ORIGIN,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${ORIGIN}/api/ready`);
      if (res.ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error('El servidor de pruebas de rendimiento no arrancó en 30 s');
}

const cases: BenchCase[] = [
  ...(process.env.BENCH_HEALTH
    ? [
        {
          name: 'GET /api/health',
          connections: 50,
          targetP99: 10,
          request: () => ({ method: 'GET', path: '/api/health' }),
        },
      ]
    : []),
  {
    name: 'GET /api/agenda/today',
    connections: 50,
    targetP99: 10,
    request: () => ({ method: 'GET', path: '/api/agenda/today' }),
  },
  {
    name: 'GET /api/notas (10 por página)',
    connections: 50,
    targetP99: 10,
    request: () => ({ method: 'GET', path: '/api/notas?page=1&pageSize=10' }),
  },
];

async function runCase(c: BenchCase) {
  const result = await autocannon({
    url: ORIGIN,
    connections: c.connections,
    duration: DURATION_S,
    requests: [c.request()],
  });
  const errors = result.errors + result.non2xx;
  return {
    caso: c.name,
    conexiones: c.connections,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'objetivo p99': `< ${c.targetP99} ms`,
    errores: errors,
    ok: result.latency.p99 < c.targetP99 && errors === 0 ? 'sí' : 'NO',
  };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-bench-'));
let server: ChildProcess | undefined;
try {
  await seed(dataDir);
  server = await startServer(dataDir);
  const rows = [];
  for (const c of cases) {
    await runCase({ ...c }); // warm-up run, discarded
    rows.push(await runCase(c));
  }
  console.table(rows);
} finally {
  server?.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
