// The server as a deployment runs it, under the day's load: the built bundle with NODE_ENV=production,
// LOG_LEVEL=warn and the heap limit of `npm start` (bench.ts starts it so), 230,000 records over the 37
// municipalities, one validator on all of them, 50 connections for 10 s per case, and the server's peak
// resident memory over the whole run. The five cases are the ones a deployment was measured with: a page
// of the list, a vote without a key and one with a fresh Idempotency-Key as phones send it, the results,
// and a page whose answer is not among the kept ones.
import { v7 as itemKey } from 'uuid';
import { createUser } from '#server/testing/auth-helpers';
import { seedBenchRecords } from './data/records-seed';
import type { BenchSuite } from './types';

const PASSWORD = 'clave-de-rendimiento-123';
const VALIDATOR = 'produccion.validador@comando.example';
const ADMIN = 'produccion.jefa@comando.example';
const RECORDS = Number(process.env.BENCH_PRODUCCION_RECORDS ?? 230_000);
const LIST_SLUG = 'cabimas';

/** Per municipality, the ids of its records (ascending); filled by the seed. */
let ids: Record<string, number[]> = {};

async function signIn(origin: string, email: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${res.status}: ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.includes('comando_sesion='));
  if (!cookie) throw new Error('Sin cookie de sesión');
  return cookie.split(';')[0]!;
}

/**
 * Records to vote, taken in turn from every municipality (the validator works on all of them): the
 * `part`-th half of each municipality's records, so the two vote cases never vote the same record.
 */
function voteTargets(part: 0 | 1): string[] {
  const slugs = Object.keys(ids);
  const halves = slugs.map((slug) => {
    const all = ids[slug] ?? [];
    const half = Math.floor(all.length / 2);
    return part === 0 ? all.slice(0, half) : all.slice(half);
  });
  const longest = Math.max(...halves.map((h) => h.length));
  const paths: string[] = [];
  for (let i = 0; i < longest; i++)
    for (const [n, slug] of slugs.entries()) {
      const id = halves[n]?.[i];
      if (id !== undefined) paths.push(`/api/validation/${slug}/records/${id}/vote`);
    }
  return paths;
}

function voteCase(name: string, part: 0 | 1, withKey: boolean): BenchSuite['cases'][number] {
  return {
    name,
    connections: 50,
    targetP99: 50,
    requests: async (origin) => {
      const cookie = await signIn(origin, VALIDATOR);
      const paths = voteTargets(part);
      let next = 0;
      return [
        {
          method: 'POST',
          path: '/',
          headers: { cookie, origin, 'content-type': 'application/json' },
          body: JSON.stringify({ candidates: ['FA', 'NR'] }),
          setupRequest: (req) => ({
            ...req,
            // As the phone's outbox sends a vote: its own UUID version 7, made when the vote was taken.
            ...(withKey ? { headers: { ...req.headers, 'idempotency-key': itemKey() } } : {}),
            path: paths[next++ % paths.length]!,
          }),
        },
      ];
    },
  };
}

export const suite: BenchSuite = {
  name: 'Producción',
  seconds: 10,
  peakMemory: true,
  async seed(db) {
    const slugs = (
      await db.kysely.selectFrom('departments').select('slug').where('kind', '=', 'municipality').execute()
    ).map((d) => d.slug);
    await createUser(db, { email: VALIDATOR, role: 'staff', password: PASSWORD, departments: slugs });
    await createUser(db, { email: ADMIN, role: 'admin', password: PASSWORD });
    ids = (await seedBenchRecords(db, RECORDS)).ids;
  },
  cases: [
    {
      name: `GET página de 100 registros de un municipio (${RECORDS.toLocaleString('es')} en 37)`,
      connections: 50,
      targetP99: 50,
      requests: async (origin) => [
        {
          method: 'GET',
          path: `/api/validation/${LIST_SLUG}/records`,
          headers: { cookie: await signIn(origin, VALIDATOR) },
        },
      ],
    },
    voteCase('POST voto sin clave', 0, false),
    voteCase('POST voto con Idempotency-Key (UUIDv7 nuevo en cada uno)', 1, true),
    {
      name: 'GET /api/results',
      connections: 50,
      targetP99: 50,
      requests: async (origin) => [
        { method: 'GET', path: '/api/results', headers: { cookie: await signIn(origin, ADMIN) } },
      ],
    },
    {
      // Every request a cursor no request before it used, municipality after municipality: no answer
      // is ever among the kept ones (they last about a second).
      name: 'GET página fuera de la caché (cursor y municipio distintos en cada una)',
      connections: 50,
      targetP99: 100,
      requests: async (origin) => {
        const cookie = await signIn(origin, VALIDATOR);
        const slugs = Object.keys(ids);
        const paths: string[] = [];
        const longest = Math.max(...slugs.map((s) => ids[s]?.length ?? 0));
        for (let i = 0; i < longest; i++)
          for (const slug of slugs) {
            const id = ids[slug]?.[i];
            if (id !== undefined) paths.push(`/api/validation/${slug}/records?after=${id}`);
          }
        let next = 0;
        return [
          {
            method: 'GET',
            path: '/',
            headers: { cookie },
            setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length]! }),
          },
        ];
      },
    },
  ],
};
