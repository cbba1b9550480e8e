// Results at election-day scale: the totals endpoint with a million records (and the same with a
// thousand, to show the cost does not grow with them), 2,000 open Resultados pages (totals, map and
// timeline, all from the live stream) while votes arrive at 500 per second, and how soon an admin's
// correction reaches the projectors.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createDepartmentsService } from '#server/features/departments/departments.service';
import { createAccountsService } from '#server/features/people/accounts.service';
import { type Db, migrateToLatest, openDatabase } from '#server/platform/db/database';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { createSettingsRepository } from '#server/platform/settings/settings.repository';
import { seedSyntheticResults, unvotedRecordIds } from '#server/testing/results-synthetic';
import { startServerProcess } from '#server/testing/server-process';
import { SECOND_FACTOR_SETTING } from '#shared/features/auth/second-factor';
import {
  applyBreakdownChange,
  applyTimelineChange,
  type Breakdown,
  type BreakdownChange,
  type Timeline,
  type TimelineChange,
} from '#shared/features/results/results';
import { memoryMb } from './process-memory';
import type { BenchSuite } from './types';

const PASSWORD = 'clave-bench-2026';
const ADMIN = 'jefa.bench@example.org';
const VALIDATOR = 'validador.bench@example.org';
const VOTING_SLUG = 'cabimas';
const RECORDS = Number(process.env.BENCH_RESULTS_RECORDS ?? 1_000_000);
const SMALL_RECORDS = 1_000;
const STREAMS = Number(process.env.BENCH_RESULTS_STREAMS ?? 2_000);
const VOTES_PER_SECOND = 500;
const VOTE_SECONDS = Number(process.env.BENCH_RESULTS_VOTE_SECONDS ?? 10);
const SMALL_PORT = Number(process.env.BENCH_SMALL_PORT ?? 4391);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CORRECTIONS = Number(process.env.BENCH_RESULTS_CORRECTIONS ?? 50);
const CORRECTION_STREAMS = 200;
const CORRECTIONS_PER_SECOND = 5;

/** Ids of unvoted records the validator may vote on, filled by the seed. */
let voteIds: number[] = [];
/** How many of them the runs so far have voted. */
let votesUsed = 0;

/** Half the records voted, in the mix of a real day: single votes, pairs, and a few for nobody. */
function ballotsFor(records: number) {
  const voted = records / 2;
  const mix: [string[], number][] = [
    [['FA'], 0.32],
    [['LC'], 0.3],
    [['NR'], 0.18],
    [['FA', 'LC'], 0.08],
    [['FA', 'NR'], 0.05],
    [['LC', 'NR'], 0.04],
    [[], 0.03],
  ];
  return mix.map(([codes, share]) => ({ codes, count: Math.round(voted * share) }));
}

async function seedResults(db: Db, now: Date, records: number): Promise<void> {
  const auth = createAccountsService(db.kysely, () => now);
  const actor = { email: 'bench', ip: null };
  // The server runs as in production, where admins need a second factor by default (decision 080): the
  // benchmark's admin signs in with the password alone.
  await createSettingsRepository(db.kysely).set(SECOND_FACTOR_SETTING, '0', now);
  await auth.createUser({ email: ADMIN, password: PASSWORD, role: 'admin' }, actor);
  await auth.createUser({ email: VALIDATOR, password: PASSWORD, role: 'staff' }, actor);
  await createDepartmentsService(db.kysely, () => now).grantAccess(VALIDATOR, VOTING_SLUG, actor);
  const ballots = ballotsFor(records);
  const voted = ballots.reduce((n, b) => n + b.count, 0);
  await seedSyntheticResults(db.kysely, { ballots, unvoted: records - voted, label: 'Bench', now });
}

async function signIn(origin: string, email: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`No se pudo iniciar sesión como ${email}: ${res.status}`);
  const cookie = res.headers.getSetCookie().find((c) => c.includes('comando_sesion='));
  if (!cookie) throw new Error('Sin cookie de sesión');
  return cookie.split(';')[0]!;
}

const resultsRequests = async (origin: string): Promise<autocannon.Request[]> => [
  { method: 'GET', path: '/api/results', headers: { cookie: await signIn(origin, ADMIN) } },
];

async function runAutocannon(origin: string, requests: autocannon.Request[]): Promise<autocannon.Result> {
  await autocannon({ url: origin, connections: 50, duration: 1, requests }); // warm-up, discarded
  return autocannon({ url: origin, connections: 50, duration: DURATION_S, requests });
}

/** A second server on a database with a thousand records, for the comparison. */
async function startSmallServer(): Promise<{ origin: string; stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-bench-small-'));
  const db = await openDatabase({ dataDir, databaseUrl: undefined });
  const now = new Date();
  await migrateToLatest(db);
  await seedReferenceData(db, now);
  await seedResults(db, now, SMALL_RECORDS);
  await db.close();
  try {
    const server = await startServerProcess({
      port: SMALL_PORT,
      dataDir,
      name: 'pequeño',
      env: { NODE_ENV: 'production' },
    });
    const stop = async () => {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
    return { origin: server.origin, stop };
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

interface StreamProbe {
  /** Highest ballot count seen. */
  ballots: number;
  /** The last ballot count seen. */
  latest: number;
  events: number;
  /** What the screen keeps of the map and the timeline, applied from the stream as the browser does. */
  breakdown: Breakdown | undefined;
  timeline: Timeline | undefined;
  /** Events of the map's and the timeline's figures. */
  viewEvents: number;
  close: () => void;
}

/**
 * Opens one live stream and keeps what a Resultados page keeps from it: the totals, the map's figures and
 * the timeline (decision 087). `onShown` gets, after each write of the server, the ballot count the
 * screen shows everywhere: on the cards and in the voting department's square.
 */
function openStream(
  origin: string,
  cookie: string,
  agent: http.Agent,
  onShown: (ballots: number) => void,
  /** Every event's ballot count, up or down (a cleared vote lowers it). */
  onEvent?: (ballots: number) => void,
): Promise<StreamProbe> {
  return new Promise((resolve, reject) => {
    const probe: StreamProbe = {
      ballots: -1,
      latest: -1,
      events: 0,
      breakdown: undefined,
      timeline: undefined,
      viewEvents: 0,
      close: () => request.destroy(),
    };
    /** The voting department's records voted, less the ballots, as the first events showed them. */
    let offset: number | undefined;
    let shown = -1;
    const request = http.get(
      `${origin}/api/results/stream`,
      { agent, headers: { accept: 'text/event-stream', cookie } },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`stream ${res.statusCode}`));
          return;
        }
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let cut = buffer.indexOf('\n\n'); cut !== -1; cut = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const event = block.slice(7, block.indexOf('\n'));
            const data = block.slice(block.indexOf('data: ') + 6);
            if (event === 'avance') {
              probe.viewEvents += 1;
              probe.breakdown = applyBreakdownChange(probe.breakdown, JSON.parse(data) as BreakdownChange);
            } else if (event === 'linea') {
              probe.viewEvents += 1;
              probe.timeline = applyTimelineChange(probe.timeline, JSON.parse(data) as TimelineChange);
            } else if (event === 'resultados') {
              const ballots = (JSON.parse(data) as { ballots: number }).ballots;
              probe.events += 1;
              probe.latest = ballots;
              onEvent?.(ballots);
              if (ballots > probe.ballots) probe.ballots = ballots;
            }
          }
          // What the page shows once this write is applied: the cards and the voting department's square.
          const voted = probe.breakdown?.rows.find((r) => r.slug === VOTING_SLUG)?.voted;
          if (voted === undefined || probe.ballots < 0) return;
          offset ??= voted - probe.ballots;
          const now = Math.min(probe.ballots, voted - offset);
          if (now > shown) {
            shown = now;
            onShown(now);
          }
        });
        resolve(probe);
      },
    );
    request.on('error', reject);
  });
}

function getJson<T>(origin: string, url: string, cookie: string): Promise<T> {
  return fetch(`${origin}${url}`, { headers: { cookie } }).then((res) => res.json() as Promise<T>);
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function comparison(origin: string): Promise<Record<string, unknown>> {
  const big = await runAutocannon(origin, await resultsRequests(origin));
  const small = await startSmallServer();
  let result: autocannon.Result;
  try {
    result = await runAutocannon(small.origin, await resultsRequests(small.origin));
  } finally {
    await small.stop();
  }
  // autocannon measures whole milliseconds: below 1 ms the ratio is noise, so 1 ms is the floor.
  const ratio = (a: number, b: number) => Math.max(a, 1) / Math.max(b, 1);
  const p99Ratio = ratio(big.latency.p99, result.latency.p99);
  const meanRatio = ratio(big.latency.average, result.latency.average);
  return {
    suite: 'Resultados',
    caso: `GET /api/results: ${RECORDS.toLocaleString('es')} frente a ${SMALL_RECORDS.toLocaleString('es')} trámites`,
    conexiones: 50,
    'req/s': `${Math.round(big.requests.average)} / ${Math.round(result.requests.average)}`,
    'p50 ms': `${big.latency.p50} / ${result.latency.p50}`,
    'p99 ms': `${big.latency.p99} / ${result.latency.p99}`,
    objetivo: 'p99 y media ≤ 2× los de 1.000 trámites',
    errores: result.errors + result.non2xx + result.timeouts,
    ok: p99Ratio <= 2 && meanRatio <= 2 ? 'sí' : 'NO',
  };
}

/**
 * 2,000 open Resultados pages while votes arrive: each keeps the totals, the map and the timeline from
 * its stream alone, as the browser does (decision 087; until then every page asked for the breakdown and
 * the timeline again on each event). From each vote's sending to each page showing it on the cards and
 * in the department's square (the timeline's quarter comes in the same write); at the end every page's
 * map and timeline must equal what the server answers.
 */
async function streams(origin: string, serverPid: number): Promise<Record<string, unknown>> {
  const admin = await signIn(origin, ADMIN);
  const validator = await signIn(origin, VALIDATOR);
  const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const voteAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  let peakMb = memoryMb(serverPid).server;
  const sampler = setInterval(() => {
    peakMb = Math.max(peakMb, memoryMb(serverPid).server);
  }, 250);

  // Latency: for each vote (in sending order), when it was sent; a stream that first shows the ballot
  // count it brought has seen it.
  const sentAt: number[] = [];
  /** Acknowledgement times of the votes, in the order they came (so, sorted). */
  const ackedAt: number[] = [];
  const fromAck: number[] = [];
  let base = -1;
  const latencies: number[] = [];
  const cardLatencies: number[] = [];
  const SAMPLED = 100;
  const probes: StreamProbe[] = [];
  try {
    const opening = Date.now();
    for (let i = 0; i < STREAMS; i += 100) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(100, STREAMS - i) }, (_, j) => {
          const sampled = i + j < SAMPLED;
          let last = -1;
          // Until the page shows it: on the cards and on the map.
          const shown = (ballots: number) => {
            if (!sampled) return;
            if (last < 0) last = ballots;
            const now = Date.now();
            for (let b = last + 1; b <= ballots; b++) {
              const at = sentAt[b - base - 1];
              if (at !== undefined) latencies.push(now - at);
              // The b-th acknowledgement came after the b-th commit (or has not come yet: 0).
              const acked = ackedAt[b - base - 1];
              fromAck.push(acked === undefined ? 0 : Math.max(0, now - acked));
            }
            last = Math.max(last, ballots);
          };
          // The cards alone (the totals' event), for the comparison with the stream's own latency.
          let lastCard = -1;
          const onCards = (ballots: number) => {
            if (!sampled || base < 0) return;
            if (lastCard < 0) lastCard = ballots;
            const now = Date.now();
            for (let b = lastCard + 1; b <= ballots; b++) {
              const at = sentAt[b - base - 1];
              if (at !== undefined) cardLatencies.push(now - at);
            }
            lastCard = Math.max(lastCard, ballots);
          };
          return openStream(
            origin,
            admin,
            streamAgent,
            (ballots) => {
              if (base < 0) base = ballots;
              shown(ballots);
            },
            onCards,
          );
        }),
      );
      probes.push(...batch);
    }
    const openMs = Date.now() - opening;
    await new Promise((r) => setTimeout(r, 500));
    base = Math.min(...probes.map((p) => p.ballots));

    // Votes at a steady 500 per second, through the real vote endpoint.
    const ids = voteIds.slice(votesUsed);
    const total = Math.min(ids.length, VOTES_PER_SECOND * VOTE_SECONDS);
    votesUsed += total;
    const codes = [['FA'], ['LC'], ['NR'], ['FA', 'LC'], []];
    let failed = 0;
    const pending: Promise<void>[] = [];
    const started = Date.now();
    for (let k = 0; k < total; k++) {
      const due = started + (k * 1000) / VOTES_PER_SECOND;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const id = ids[k]!;
      sentAt[k] = Date.now();
      pending.push(
        new Promise<void>((resolve) => {
          const body = JSON.stringify({ candidates: codes[k % codes.length] });
          const req = http.request(
            `${origin}/api/validation/${VOTING_SLUG}/records/${id}/vote`,
            {
              method: 'POST',
              agent: voteAgent,
              headers: {
                'content-type': 'application/json',
                origin,
                cookie: validator,
                'content-length': Buffer.byteLength(body),
              },
            },
            (res) => {
              if (res.statusCode !== 201) failed += 1;
              else ackedAt.push(Date.now());
              res.resume();
              res.on('end', resolve);
            },
          );
          req.on('error', () => {
            failed += 1;
            resolve();
          });
          req.end(body);
        }),
      );
    }
    await Promise.all(pending);
    const rate = total / ((Date.now() - started) / 1000);
    // Every stream must reach the final total.
    const final = base + total - failed;
    const deadline = Date.now() + 3_000;
    while (Date.now() < deadline && probes.some((p) => p.ballots < final)) {
      await new Promise((r) => setTimeout(r, 100));
    }
    // Every page's map and timeline, applied from the stream's changes, are what the server answers.
    const [breakdown, timeline] = await Promise.all([
      getJson<Breakdown>(origin, '/api/results/breakdown', admin),
      getJson<Timeline>(origin, '/api/results/timeline', admin),
    ]);
    const deadlineViews = Date.now() + 3_000;
    const wrongViews = () =>
      probes.filter(
        (p) =>
          JSON.stringify(p.breakdown?.rows) !== JSON.stringify(breakdown.rows) ||
          JSON.stringify(p.timeline?.buckets) !== JSON.stringify(timeline.buckets),
      ).length;
    while (Date.now() < deadlineViews && wrongViews() > 0) await new Promise((r) => setTimeout(r, 100));
    const wrong = wrongViews();
    const behind = probes.filter((p) => p.ballots < final).length;
    latencies.sort((a, b) => a - b);
    cardLatencies.sort((a, b) => a - b);
    fromAck.sort((a, b) => a - b);
    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);
    const p99 = percentile(latencies, 99);
    const ok = p95 < 1000 && peakMb < 400 && behind === 0 && wrong === 0 && failed === 0 && probes.length === STREAMS;
    console.log(
      `Resultados en vivo: ${probes.length} flujos abiertos en ${openMs} ms; ${total} votos a ${rate.toFixed(0)}/s; ` +
        `latencia voto→pantalla (tarjetas y mapa) desde el envío p50 ${p50} ms, p95 ${p95} ms, p99 ${p99} ms (${latencies.length} muestras de ${SAMPLED} flujos), ` +
        `solo las tarjetas p50 ${percentile(cardLatencies, 50)} ms, p95 ${percentile(cardLatencies, 95)} ms, ` +
        `desde la confirmación del voto p50 ${percentile(fromAck, 50)} ms, p95 ${percentile(fromAck, 95)} ms; ` +
        `memoria máx. del servidor ${peakMb.toFixed(0)} MB; flujos atrasados al final: ${behind}; mapa o línea distintos del servidor al final: ${wrong}; ` +
        `eventos por flujo ≈ ${Math.round(probes.reduce((n, p) => n + p.events, 0) / probes.length)} de totales y ${Math.round(probes.reduce((n, p) => n + p.viewEvents, 0) / probes.length)} de mapa y línea`,
    );
    return {
      suite: 'Resultados',
      caso: `${probes.length} páginas con totales, mapa y línea de tiempo del flujo en vivo (voto→pantalla), votos a ${rate.toFixed(0)}/s durante ${VOTE_SECONDS} s`,
      conexiones: probes.length,
      'req/s': Math.round(rate),
      'p50 ms': p50,
      'p99 ms': p99,
      objetivo: `voto→flujo p95 < 1000 ms (p95 = ${p95} ms), memoria < 400 MB (${peakMb.toFixed(0)} MB)`,
      errores: failed + behind + wrong,
      ok: ok ? 'sí' : 'NO',
    };
  } finally {
    clearInterval(sampler);
    for (const p of probes) p.close();
    streamAgent.destroy();
    voteAgent.destroy();
  }
}

/**
 * An admin clears votes (PUT /api/admin/records/:id/vote, candidates null), one every 200 ms, while
 * 200 projectors hold the live stream: from each request sent to each projector showing the lower
 * ballot count. Corrections are spaced so that each one's arrival is told apart from the next.
 */
async function corrections(origin: string): Promise<Record<string, unknown>> {
  const admin = await signIn(origin, ADMIN);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  // The records the streams case voted (each vote written once: revision 1): each is cleared once.
  const ids = voteIds.slice(0, CORRECTIONS);
  const sentAt: number[] = [];
  let start = -1;
  const latencies: number[] = [];
  const probes: StreamProbe[] = [];
  let failed = 0;
  try {
    for (let i = 0; i < CORRECTION_STREAMS; i += 100) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(100, CORRECTION_STREAMS - i) }, () => {
          /** Corrections this projector has shown. */
          let seen = 0;
          return openStream(
            origin,
            admin,
            agent,
            () => {},
            (ballots) => {
              if (start < 0) return;
              const now = Date.now();
              // The k-th correction (from 1) brings the count to start - k.
              for (let k = seen + 1; k <= start - ballots; k++) {
                const at = sentAt[k - 1];
                if (at !== undefined) latencies.push(now - at);
              }
              seen = Math.max(seen, start - ballots);
            },
          );
        }),
      );
      probes.push(...batch);
    }
    await new Promise((r) => setTimeout(r, 500));
    start = Math.min(...probes.map((p) => p.ballots));
    const pending: Promise<void>[] = [];
    const started = Date.now();
    for (let k = 0; k < ids.length; k++) {
      const wait = started + (k * 1000) / CORRECTIONS_PER_SECOND - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sentAt[k] = Date.now();
      pending.push(
        fetch(`${origin}/api/admin/records/${ids[k]}/vote`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', origin, cookie: admin },
          body: JSON.stringify({
            candidates: null,
            reason: 'Prueba de rendimiento: voto registrado por error',
            voteRevision: 1,
          }),
        }).then(
          async (res) => {
            if (res.status !== 200) failed += 1;
            await res.arrayBuffer();
          },
          () => {
            failed += 1;
          },
        ),
      );
    }
    await Promise.all(pending);
    const final = start - ids.length + failed;
    const deadline = Date.now() + 3_000;
    while (Date.now() < deadline && probes.some((p) => p.latest > final)) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const behind = probes.filter((p) => p.latest > final).length;
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);
    const max = latencies.at(-1) ?? Number.NaN;
    console.log(
      `Correcciones: ${ids.length} votos borrados por un administrador a ${CORRECTIONS_PER_SECOND}/s con ${probes.length} proyectores abiertos; ` +
        `de la petición a cada proyector p50 ${p50} ms, p95 ${p95} ms, máx. ${max} ms (${latencies.length} muestras); fallidas ${failed}; proyectores atrasados ${behind}`,
    );
    return {
      suite: 'Resultados',
      caso: `Corrección de un voto (PUT /api/admin/records/:id/vote) con ${probes.length} proyectores abiertos`,
      conexiones: probes.length,
      'req/s': CORRECTIONS_PER_SECOND,
      'p50 ms': p50,
      'p99 ms': percentile(latencies, 99),
      objetivo: `el proyector la muestra en < 1 s (p95 = ${p95} ms, máx. ${max} ms)`,
      errores: failed + behind,
      ok: p95 < 1000 && failed === 0 && behind === 0 && latencies.length === ids.length * probes.length ? 'sí' : 'NO',
    };
  } finally {
    for (const p of probes) p.close();
    agent.destroy();
  }
}

export const suite: BenchSuite = {
  name: 'Resultados',
  async seed(db, now) {
    const started = Date.now();
    await seedResults(db, now, RECORDS);
    // One run of votes; the corrections then clear some of them.
    voteIds = await unvotedRecordIds(db.kysely, VOTING_SLUG, VOTES_PER_SECOND * VOTE_SECONDS);
    console.log(
      `Resultados: ${RECORDS.toLocaleString('es')} trámites en ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  },
  cases: [
    {
      name: `GET /api/results (${RECORDS.toLocaleString('es')} trámites, la mitad votados)`,
      connections: 50,
      targetP99: 10,
      requests: resultsRequests,
    },
    {
      name: 'GET /api/results/timeline (el día por cuartos de hora)',
      connections: 50,
      targetP99: 50,
      requests: async (origin) => [
        { method: 'GET', path: '/api/results/timeline', headers: { cookie: await signIn(origin, ADMIN) } },
      ],
    },
    {
      name: 'GET /api/results/breakdown (37 municipios)',
      connections: 50,
      targetP99: 50,
      requests: async (origin) => [
        { method: 'GET', path: '/api/results/breakdown', headers: { cookie: await signIn(origin, ADMIN) } },
      ],
    },
  ],
  async extra(origin, serverPid) {
    // The vote's way to 2,000 pages that show the totals, the map and the timeline from the stream.
    return [await comparison(origin), await streams(origin, serverPid), await corrections(origin)];
  },
};
