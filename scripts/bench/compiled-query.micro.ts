// `npx tsx scripts/bench/compiled-query.micro.ts`: what compiledQuery (src/server/platform/db/compiled-query.ts)
// saves per call on the hot queries, on a throwaway SQLite database. For each query: Kysely building and
// compiling alone, Kysely building, compiling and running, and the compiled query running. Microseconds per
// call, the median of 7 rounds (decision 036). Not a suite of `npm run bench`: no server, no HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Compilable, type Kysely, sql } from 'kysely';
import { compiledQuery } from '#server/platform/db/compiled-query';
import { migrateToLatest, openDatabase } from '#server/platform/db/database';
import type { Database } from '#server/platform/db/schema';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { seedBenchRecords } from './data/records-seed';

type Db = Kysely<Database>;
const ROUNDS = 7;
const CALLS = Number(process.env.MICRO_CALLS ?? 2_000);

const COLUMNS = ['id', 'department_id', 'comunidad', 'nombre', 'ubch', 'telefono', 'status', 'voted_at'] as const;

/** The same shapes as the records repository's and the session repository's hot queries. */
const shapes = {
  'página de 100 (lectura)': (db: Db, departmentId: number, after: number, limit: number) =>
    db
      .selectFrom('records')
      .select(COLUMNS)
      .where('department_id', '=', departmentId)
      .where('status', '=', 'pendiente')
      .where('completed', '=', 0)
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit),
  'voto: marcar votado (update … returning)': (db: Db, departmentId: number, recordId: number, at: string) =>
    db
      .updateTable('records')
      .set({
        voted_at: at,
        voted_by: 'bench',
        vote_codes: 'FA,NR',
        updated_at: at,
        completed: sql<number>`case when gobernador_photo_id is not null and an_photo_id is not null and clez_photo_id is not null then 1 else 0 end`,
      })
      .where('id', '=', recordId)
      .where('department_id', '=', departmentId)
      .where('status', '=', 'pendiente')
      .where('voted_at', 'is', null)
      .returning(COLUMNS),
  'voto: contador (insert … on conflict)': (db: Db, departmentId: number, total: number, voted: number) =>
    db
      .insertInto('record_counts')
      .values({ department_id: departmentId, total, voted, validated: 0 })
      .onConflict((oc) =>
        oc.column('department_id').doUpdateSet((eb) => ({
          total: eb('record_counts.total', '+', eb.ref('excluded.total')),
          voted: eb('record_counts.voted', '+', eb.ref('excluded.voted')),
        })),
      ),
  'sesión viva (join)': (db: Db, tokenHash: string, nowIso: string) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.id as session_id', 'sessions.expires_at', 'users.id as user_id', 'users.email', 'users.role'])
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.expires_at', '>', nowIso)
      .where('users.disabled', '=', 0),
} satisfies Record<string, (db: Db, ...args: never[]) => Compilable<unknown>>;

async function perCall(run: () => unknown): Promise<number> {
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) await run();
    rounds.push(Number(process.hrtime.bigint() - started) / 1_000 / CALLS);
  }
  rounds.sort((a, b) => a - b);
  return rounds[Math.floor(ROUNDS / 2)] ?? 0;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-micro-'));
const database = await openDatabase({ dataDir, databaseUrl: undefined });
try {
  await migrateToLatest(database);
  await seedReferenceData(database, new Date());
  const { ids } = await seedBenchRecords(database, 5_000, { departments: ['bolivar'] });
  const db = database.kysely;
  const department = await db
    .selectFrom('departments')
    .select('id')
    .where('slug', '=', 'bolivar')
    .executeTakeFirstOrThrow();
  const first = ids.bolivar?.[0] ?? 0;
  const at = new Date().toISOString();
  const args: { [K in keyof typeof shapes]: Parameters<(typeof shapes)[K]> extends [Db, ...infer A] ? A : never } = {
    'página de 100 (lectura)': [department.id, first, 101],
    // A record that does not exist: the statement runs, nothing changes between calls.
    'voto: marcar votado (update … returning)': [department.id, -1, at],
    'voto: contador (insert … on conflict)': [department.id, 0, 0],
    'sesión viva (join)': ['0'.repeat(64), at],
  };
  // Writes inside one transaction that is rolled back: no disk flush per call, nothing kept.
  await sql`begin`.execute(db);
  const rows: Record<string, string | number>[] = [];
  for (const name of Object.keys(shapes) as (keyof typeof shapes)[]) {
    const build = shapes[name] as (db: Db, ...a: unknown[]) => Compilable<unknown>;
    const a = args[name] as unknown[];
    const compiled = compiledQuery((d: Db, ...p: unknown[]) => build(d, ...p));
    const buildOnly = await perCall(() => build(db, ...a).compile());
    const kysely = await perCall(() => db.executeQuery(build(db, ...a).compile()));
    const precompiled = await perCall(() => compiled(db, ...a));
    rows.push({
      consulta: name,
      'construir+compilar µs': buildOnly.toFixed(1),
      'Kysely completo µs': kysely.toFixed(1),
      'compilada µs': precompiled.toFixed(1),
      ahorro: `${(((kysely - precompiled) / kysely) * 100).toFixed(0)} %`,
    });
  }
  await sql`rollback`.execute(db);
  console.table(rows);
} finally {
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
