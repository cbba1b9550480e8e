// `npx tsx scripts/bench/compiled-query.micro.ts`: what compiledQuery (src/server/platform/db/compiled-query.ts)
// saves per call on the queries of the election-day hot paths, on a throwaway SQLite database and, when
// PostgreSQL's binaries are installed, on a throwaway PostgreSQL cluster (MICRO_DIALECTS=sqlite to skip it).
// Each query runs both ways, built and compiled by Kysely at every call and compiled ahead by
// compiledQuery, alternating round by round, each round in a transaction that is rolled back (the writes
// change real rows, nothing is kept). Per call: wall-clock µs and this process's CPU µs, medians of the
// rounds; then the sum over the queries each hot request runs (decision 036). Not a suite of `npm run bench`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Compilable, type Kysely, sql } from 'kysely';
import { RECORD_COLUMNS } from '#server/core/records/records.repository';
import { DEPARTMENT_COLUMNS } from '#server/platform/access/access.repository';
import { compiledQuery } from '#server/platform/db/compiled-query';
import { migrateToLatest, type Db as OpenDb, openDatabase } from '#server/platform/db/database';
import type { Database } from '#server/platform/db/schema';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { LIVE_SESSION_COLUMNS } from '#server/platform/session/session.repository';
import { createUser } from '#server/testing/auth-helpers';
import { findPostgresBin, startPostgresCluster } from '../../tests/support/postgres-cluster';
import { seedBenchRecords } from './data/records-seed';

type Db = Kysely<Database>;
const ROUNDS = Number(process.env.MICRO_ROUNDS ?? 9);
const CALLS = Number(process.env.MICRO_CALLS ?? 1_000);
const DIALECTS = (process.env.MICRO_DIALECTS ?? 'sqlite,postgres').split(',');
const SLUG = 'bolivar';
const EMAIL = 'micro.validador@comando.example';

/** What a query gets: the ids of the fixture, and `i`, the call's number within its round. */
interface Fixture {
  departmentId: number;
  recordIds: number[];
  candidateIds: [number, number];
  tokenHash: string;
  at: string;
}

interface HotQuery {
  name: string;
  build: (db: Db, ...args: never[]) => Compilable<unknown>;
  args: (f: Fixture, i: number) => unknown[];
}

/**
 * The hot queries as the repositories write them (records, access, session). The page query is built at
 * every call since decision 036; it stays here as the measure of why.
 */
const hotQueries = [
  {
    name: 'records: página (listPage)',
    build: (db: Db, departmentId: number, after: number, limit: number) =>
      db
        .selectFrom('records')
        .select(RECORD_COLUMNS)
        .where('department_id', '=', departmentId)
        .where('status', '=', 'pendiente')
        .where('completed', '=', 0)
        .where('id', '>', after)
        .orderBy('id')
        .limit(limit),
    args: (f, i) => [f.departmentId, f.recordIds[(i % 50) * 100] ?? 0, 101],
  },
  {
    name: 'records: markVoted',
    build: (db: Db, departmentId: number, recordId: number, codes: string, by: string, at: string) =>
      db
        .updateTable('records')
        .set({
          voted_at: at,
          voted_by: by,
          vote_codes: codes,
          vote_revision: sql<number>`vote_revision + 1`,
          updated_at: at,
          completed: sql<number>`case when gobernador_photo_id is not null and an_photo_id is not null and clez_photo_id is not null then 1 else 0 end`,
        })
        .where('id', '=', recordId)
        .where('department_id', '=', departmentId)
        .where('status', '=', 'pendiente')
        .where('voted_at', 'is', null)
        .returning(RECORD_COLUMNS),
    args: (f, i) => [f.departmentId, f.recordIds[i], 'FA,NR', EMAIL, f.at],
  },
  {
    name: 'records: bumpBallots',
    build: (db: Db, departmentId: number) =>
      db
        .insertInto('vote_totals')
        .values({ department_id: departmentId, ballots: 1 })
        .onConflict((oc) =>
          oc.column('department_id').doUpdateSet((eb) => ({ ballots: eb('vote_totals.ballots', '+', 1) })),
        ),
    args: (f) => [f.departmentId],
  },
  {
    name: 'records: addVotes, filas (2)',
    build: (db: Db, recordId: number, at: string, a: number, b: number) =>
      db.insertInto('record_votes').values([
        { record_id: recordId, candidate_id: a, created_at: at },
        { record_id: recordId, candidate_id: b, created_at: at },
      ]),
    args: (f, i) => [f.recordIds[i], f.at, ...f.candidateIds],
  },
  {
    name: 'records: addVotes, totales (2)',
    build: (db: Db, departmentId: number, a: number, b: number) =>
      db
        .insertInto('candidate_totals')
        .values([
          { department_id: departmentId, candidate_id: a, votes: 1 },
          { department_id: departmentId, candidate_id: b, votes: 1 },
        ])
        .onConflict((oc) =>
          oc
            .columns(['department_id', 'candidate_id'])
            .doUpdateSet((eb) => ({ votes: eb('candidate_totals.votes', '+', 1) })),
        ),
    args: (f) => [f.departmentId, ...f.candidateIds],
  },
  {
    name: 'records: bumpCounts',
    build: (db: Db, departmentId: number, total: number, voted: number, validated: number) =>
      db
        .insertInto('record_counts')
        .values({ department_id: departmentId, total, voted, validated })
        .onConflict((oc) =>
          oc.column('department_id').doUpdateSet((eb) => ({
            total: eb('record_counts.total', '+', eb.ref('excluded.total')),
            voted: eb('record_counts.voted', '+', eb.ref('excluded.voted')),
            validated: eb('record_counts.validated', '+', eb.ref('excluded.validated')),
          })),
        ),
    args: (f) => [f.departmentId, 0, 1, 0],
  },
  {
    name: 'session: findLiveSession',
    build: (db: Db, tokenHash: string, nowIso: string) =>
      db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(LIVE_SESSION_COLUMNS)
        .where('sessions.token_hash', '=', tokenHash)
        .where('sessions.expires_at', '>', nowIso)
        .where('sessions.idle_expires_at', '>', nowIso)
        .where('users.disabled', '=', 0),
    args: (f) => [f.tokenHash, f.at],
  },
  {
    name: 'access: listOpenDepartments',
    build: (db: Db, email: string) =>
      db
        .selectFrom('departments')
        .leftJoin('department_members', (join) =>
          join
            .onRef('department_members.department_id', '=', 'departments.id')
            .on('department_members.email', '=', email),
        )
        .select(DEPARTMENT_COLUMNS)
        .where('department_members.email', 'is not', null)
        .orderBy('departments.position'),
    args: () => [EMAIL],
  },
  {
    name: 'access: findDepartment',
    build: (db: Db, slug: string) => db.selectFrom('departments').select(DEPARTMENT_COLUMNS).where('slug', '=', slug),
    args: () => [SLUG],
  },
  {
    name: 'access: isMember',
    build: (db: Db, departmentId: number, email: string) =>
      db
        .selectFrom('department_members')
        .select('email')
        .where('department_id', '=', departmentId)
        .where('email', '=', email),
    args: (f) => [f.departmentId, EMAIL],
  },
] satisfies HotQuery[] as HotQuery[];

/**
 * Which of these queries run per request of each hot path. The session and access answers are kept
 * in memory on SQLite (cache.ts, decision 037), so there they run only after an access change; the
 * validators' list is kept for a second on both (decision 037), so its page query runs about once a
 * second per page, not per request.
 */
const VOTE = [
  'records: markVoted',
  'records: bumpBallots',
  'records: addVotes, filas (2)',
  'records: addVotes, totales (2)',
  'records: bumpCounts',
];
const ACCESS = ['session: findLiveSession', 'access: findDepartment', 'access: isMember'];
const paths: Record<string, Record<string, string[]>> = {
  sqlite: { 'POST voto': VOTE, 'GET sesión': [], 'GET página (caché de 1 s)': [] },
  postgres: {
    'POST voto': [...VOTE, ...ACCESS],
    'GET sesión': ['session: findLiveSession', 'access: listOpenDepartments'],
    'GET página (caché de 1 s)': ACCESS,
  },
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

interface Cost {
  /** Wall-clock µs per call: one call after another on one connection. */
  wall: number;
  /** This process's CPU µs per call (user + system): what a busy server pays, the database's share aside. */
  cpu: number;
}

/** Runs CALLS calls in a transaction on one connection, then rolls it back. */
async function round(conn: Db, run: (i: number) => Promise<unknown>): Promise<Cost> {
  await sql`begin`.execute(conn);
  try {
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) await run(i);
    const wall = Number(process.hrtime.bigint() - started) / 1_000 / CALLS;
    const used = process.cpuUsage(cpu);
    return { wall, cpu: (used.user + used.system) / CALLS };
  } finally {
    await sql`rollback`.execute(conn);
  }
}

const medianCost = (costs: Cost[]): Cost => ({
  wall: median(costs.map((c) => c.wall)),
  cpu: median(costs.map((c) => c.cpu)),
});

async function measure(dialect: string, database: OpenDb) {
  await migrateToLatest(database);
  const now = new Date();
  await seedReferenceData(database, now);
  const { ids } = await seedBenchRecords(database, Math.max(CALLS, 5_000), { departments: [SLUG] });
  await createUser(database, { email: EMAIL, role: 'staff', departments: [SLUG] });
  const db = database.kysely;
  const user = await db.selectFrom('users').select('id').where('email', '=', EMAIL).executeTakeFirstOrThrow();
  const tokenHash = 'f'.repeat(64);
  const later = new Date(now.getTime() + 3_600_000).toISOString();
  await db
    .insertInto('sessions')
    .values({
      token_hash: tokenHash,
      user_id: user.id,
      created_at: now.toISOString(),
      expires_at: later,
      idle_expires_at: later,
      ip: null,
      user_agent: null,
    })
    .execute();
  const department = await db.selectFrom('departments').select('id').where('slug', '=', SLUG).executeTakeFirstOrThrow();
  const candidates = await db.selectFrom('candidates').select('id').orderBy('id').limit(2).execute();
  const fixture: Fixture = {
    departmentId: department.id,
    recordIds: ids[SLUG] ?? [],
    candidateIds: [candidates[0]?.id ?? 0, candidates[1]?.id ?? 0],
    tokenHash,
    at: now.toISOString(),
  };

  const perQuery = new Map<string, { buildOnly: number; kysely: Cost; compiled: Cost }>();
  // One connection for everything: PostgreSQL's pool would otherwise spread a transaction over several.
  await db.connection().execute(async (conn) => {
    for (const q of hotQueries) {
      const build = q.build as (db: Db, ...a: unknown[]) => Compilable<unknown>;
      const compiled = compiledQuery((d: Db, ...p: unknown[]) => build(d, ...p));
      const runKysely = () => round(conn, (i) => conn.executeQuery(build(conn, ...q.args(fixture, i)).compile()));
      const runCompiled = () => round(conn, (i) => compiled(conn, ...q.args(fixture, i)));
      // Warm-up: the JIT, the statement caches and compiledQuery's first compilation.
      await runKysely();
      await runCompiled();
      const buildOnly: number[] = [];
      const kysely: Cost[] = [];
      const precompiled: Cost[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const start = process.hrtime.bigint();
        for (let i = 0; i < CALLS; i++) build(conn, ...q.args(fixture, i)).compile();
        buildOnly.push(Number(process.hrtime.bigint() - start) / 1_000 / CALLS);
        // Each goes first every other round: neither gains from the order.
        if (r % 2 === 0) {
          kysely.push(await runKysely());
          precompiled.push(await runCompiled());
        } else {
          precompiled.push(await runCompiled());
          kysely.push(await runKysely());
        }
      }
      perQuery.set(q.name, {
        buildOnly: median(buildOnly),
        kysely: medianCost(kysely),
        compiled: medianCost(precompiled),
      });
    }
  });

  const f1 = (n: number) => n.toFixed(1);
  console.log(`\n${dialect}: µs por llamada, mediana de ${ROUNDS} rondas de ${CALLS} llamadas`);
  console.table(
    [...perQuery].map(([name, m]) => ({
      consulta: name,
      'construir+compilar': f1(m.buildOnly),
      'Kysely cada vez': f1(m.kysely.wall),
      compilada: f1(m.compiled.wall),
      ahorro: f1(m.kysely.wall - m.compiled.wall),
      'CPU Kysely': f1(m.kysely.cpu),
      'CPU compilada': f1(m.compiled.cpu),
      'ahorro CPU': f1(m.kysely.cpu - m.compiled.cpu),
    })),
  );
  console.log(`${dialect}: las consultas compiladas de cada petición, µs juntas`);
  console.table(
    Object.entries(paths[dialect] ?? {}).map(([route, names]) => {
      const sum = (pick: (m: { buildOnly: number; kysely: Cost; compiled: Cost }) => number) =>
        names.reduce((total, n) => {
          const m = perQuery.get(n);
          return total + (m ? pick(m) : 0);
        }, 0);
      return {
        ruta: route,
        consultas: names.length,
        'Kysely cada vez': f1(sum((m) => m.kysely.wall)),
        compiladas: f1(sum((m) => m.compiled.wall)),
        ahorro: f1(sum((m) => m.kysely.wall - m.compiled.wall)),
        'ahorro CPU': f1(sum((m) => m.kysely.cpu - m.compiled.cpu)),
      };
    }),
  );
}

console.log(
  `${new Date().toISOString()} · ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (carga 1/5/15 min)`,
);
if (DIALECTS.includes('sqlite')) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-micro-'));
  const database = await openDatabase({ dataDir, databaseUrl: undefined });
  try {
    await measure('sqlite', database);
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
const bin = DIALECTS.includes('postgres') ? findPostgresBin() : undefined;
if (DIALECTS.includes('postgres') && !bin) console.log('\npostgres: no se encontró PostgreSQL; se omite.');
if (bin) {
  const cluster = await startPostgresCluster(bin);
  try {
    const database = await openDatabase({ dataDir: '', databaseUrl: cluster.url });
    try {
      await measure('postgres', database);
    } finally {
      await database.close();
    }
  } finally {
    await cluster.stop();
  }
}
console.log(
  `${new Date().toISOString()} · ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (carga 1/5/15 min)`,
);
