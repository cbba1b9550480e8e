// `npm run bench -- inundación`: one validator floods the field reports (docs/decisions/060) under ever
// new device ids, as large as the report's contract allows, and asks for the department's field view,
// while another validator of the same department votes. Prints the other validator's vote latency
// before and during the flood, how many reports were taken and how many rows they left.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { v7 as itemKey } from 'uuid';
import { createUser } from '#server/testing/auth-helpers';
import { seedBenchRecords } from './data/records-seed';
import type { BenchSuite } from './types';

const SLUG = 'mara';
const FLOODER = 'bench.inunda@comando.example';
const VOTER = 'bench.vota@comando.example';
const PASSWORD = 'clave-de-rendimiento-123';
// Enough for the other validator to vote a new record at every try for the 40 s, on a quiet machine too.
const RECORDS = 150_000;
/** How long the flood lasts, and the voting before it (the baseline), in seconds. */
const FLOOD_S = Number(process.env.FLOOD_SECONDS ?? 30);
const BASELINE_S = Number(process.env.FLOOD_BASELINE_SECONDS ?? 10);
/** Reports in flight at once, and field-view requests in flight at once, from the flooding validator. */
const REPORT_CONNECTIONS = 8;
const VIEW_CONNECTIONS = 2;
/** The voter's votes in flight at once. */
const VOTE_CONNECTIONS = 2;
let ids: number[] = [];

async function signIn(origin: string, email: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${res.status}: ${await res.text()}`);
  return res.headers.get('set-cookie')?.split(';')[0] ?? '';
}

/**
 * The largest report either contract takes: the counts of before (200 departments, 100,000 waiting
 * each) and 500 named items. Each server reads the fields it knows and leaves out the others.
 */
function floodReport(recordIds: number[]): string {
  const now = new Date().toISOString();
  return JSON.stringify({
    deviceId: randomUUID(),
    deviceNow: now,
    waiting: 100_000,
    oldestWaitingAt: now,
    lastSuccessAt: now,
    lastError: { message: 'x'.repeat(500), at: now },
    departments: Array.from({ length: 200 }, () => ({ slug: SLUG, waiting: 100_000, oldestWaitingAt: now })),
    items: recordIds.slice(0, 500).map((recordId) => ({
      key: itemKey(),
      slug: SLUG,
      recordId,
      kind: 'vote',
      savedAt: now,
    })),
  });
}

const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

/** Runs `task` on `connections` loops until `until`; answers each call's time in ms and its status. */
async function loops(connections: number, until: () => boolean, task: () => Promise<number>) {
  const times: number[] = [];
  const statuses = new Map<number, number>();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (!until()) {
        const started = performance.now();
        let status = 0;
        try {
          status = await task();
        } catch {
          status = 0;
        }
        times.push(performance.now() - started);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return { times, statuses };
}

export const suite: BenchSuite = {
  name: 'Campo: inundación de informes',
  async seed(db) {
    await createUser(db, { email: FLOODER, role: 'staff', password: PASSWORD, departments: [SLUG] });
    await createUser(db, { email: VOTER, role: 'staff', password: PASSWORD, departments: [SLUG] });
    ids = (await seedBenchRecords(db, RECORDS, { departments: [SLUG] })).ids[SLUG] ?? [];
  },
  cases: [],
  async extra(origin, _pid, dataDir) {
    const flooder = await signIn(origin, FLOODER);
    const voter = await signIn(origin, VOTER);
    // The flood's items name the first records; the votes use the rest, each record once.
    const reported = ids.slice(0, 500);
    let next = 500;
    const vote = async () => {
      const id = ids[next++];
      if (id === undefined) throw new Error('No quedan registros para votar.');
      const res = await fetch(`${origin}/api/validation/${SLUG}/records/${id}/vote`, {
        method: 'POST',
        headers: { cookie: voter, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ candidates: ['FA'] }),
      });
      await res.arrayBuffer();
      return res.status;
    };
    const deadline = (seconds: number) => {
      const end = performance.now() + seconds * 1000;
      return () => performance.now() >= end;
    };

    const baseline = await loops(VOTE_CONNECTIONS, deadline(BASELINE_S), vote);

    const floodOver = deadline(FLOOD_S);
    const [flood, views, votes] = await Promise.all([
      loops(REPORT_CONNECTIONS, floodOver, async () => {
        const res = await fetch(`${origin}/api/field/reports`, {
          method: 'POST',
          headers: { cookie: flooder, origin, 'content-type': 'application/json' },
          body: floodReport(reported),
        });
        await res.arrayBuffer();
        return res.status;
      }),
      loops(VIEW_CONNECTIONS, floodOver, async () => {
        const res = await fetch(`${origin}/api/field/${SLUG}`, { headers: { cookie: flooder } });
        await res.arrayBuffer();
        return res.status;
      }),
      loops(VOTE_CONNECTIONS, floodOver, vote),
    ]);

    // What the flood left: the rows of whichever table this version keeps its reports in.
    const db = new Database(path.join(dataDir, 'comando.sqlite'), { readonly: true, fileMustExist: true });
    const tables = new Set(
      (db.prepare(`select name from sqlite_master where type = 'table'`).all() as { name: string }[]).map(
        (t) => t.name,
      ),
    );
    const count = (table: string) =>
      tables.has(table) ? (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n : null;
    const rows = tables.has('device_reports')
      ? `${count('device_reports')} filas en device_reports`
      : `${count('field_devices')} teléfonos, ${count('field_items')} envíos en field_items`;
    db.close();
    const waitingShown = await fetch(`${origin}/api/field/${SLUG}`, { headers: { cookie: voter } })
      .then((r) => r.json() as Promise<{ validators: { email: string; waiting: number }[] }>)
      .then((v) => v.validators.find((line) => line.email === FLOODER)?.waiting ?? 0);

    const ms = (x: number) => `${Math.round(x)} ms`;
    const statuses = (s: Map<number, number>) =>
      [...s]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${n} × ${status}`)
        .join(', ');
    const voteFailures = (s: Map<number, number>) =>
      [...s].filter(([status]) => status < 200 || status > 299).reduce((t, [, n]) => t + n, 0);
    return [
      {
        suite: 'Campo: inundación de informes',
        caso: `otro validador vota (${VOTE_CONNECTIONS} a la vez), sin inundación (${BASELINE_S} s)`,
        'req/s': Math.round(baseline.times.length / BASELINE_S),
        'p50 ms': Math.round(percentile(baseline.times, 50)),
        'p99 ms': Math.round(percentile(baseline.times, 99)),
        errores: voteFailures(baseline.statuses),
      },
      {
        suite: 'Campo: inundación de informes',
        caso: `otro validador vota (${VOTE_CONNECTIONS} a la vez), durante la inundación (${FLOOD_S} s)`,
        'req/s': Math.round(votes.times.length / FLOOD_S),
        'p50 ms': Math.round(percentile(votes.times, 50)),
        'p99 ms': Math.round(percentile(votes.times, 99)),
        errores: voteFailures(votes.statuses),
        objetivo: 'p99 < 100 ms',
        ok: percentile(votes.times, 99) < 100 && voteFailures(votes.statuses) === 0 ? 'sí' : 'NO',
      },
      {
        suite: 'Campo: inundación de informes',
        caso: `informes de un validador (${REPORT_CONNECTIONS} a la vez, ids de teléfono siempre nuevos)`,
        'req/s': Math.round(flood.times.length / FLOOD_S),
        'p50 ms': Math.round(percentile(flood.times, 50)),
        'p99 ms': Math.round(percentile(flood.times, 99)),
        respuestas: statuses(flood.statuses),
        dejaron: rows,
      },
      {
        suite: 'Campo: inundación de informes',
        caso: `vista de campo del municipio (${VIEW_CONNECTIONS} a la vez)`,
        'req/s': Math.round(views.times.length / FLOOD_S),
        'p50 ms': Math.round(percentile(views.times, 50)),
        'p99 ms': `${ms(percentile(views.times, 99))}`,
        respuestas: statuses(views.statuses),
        dejaron: `muestra ${waitingShown.toLocaleString('es')} por enviar`,
      },
    ];
  },
};
