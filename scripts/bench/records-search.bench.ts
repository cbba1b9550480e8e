// The admins' search over every municipality and parish (Registros without one chosen) on 100,000
// records: words found in many records (the first page comes quickly), in a few, and in none (the
// whole table is read once). Accents and case as people type them.
import { createUser } from '#server/testing/auth-helpers';
import { seedBenchRecords } from './data/records-seed';
import type { BenchSuite } from './types';

const EMAIL = 'bench.busqueda@comando.example';
const PASSWORD = 'clave-de-rendimiento-123';
const RECORDS = 100_000;
/** A few admins looking for people at the same moment. */
const CONNECTIONS = 5;

async function signIn(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${res.status}: ${await res.text()}`);
  return res.headers.get('set-cookie')?.split(';')[0] ?? '';
}

/** Requests that take turns through `queries`, each the first page of all municipalities. */
async function searches(origin: string, queries: string[]) {
  const cookie = await signIn(origin);
  let next = 0;
  return [
    {
      method: 'GET' as const,
      path: '/api/admin/records',
      headers: { cookie },
      setupRequest: (req: { path?: string }) => ({
        ...req,
        path: `/api/admin/records?${new URLSearchParams({ q: queries[next++ % queries.length] as string, status: 'todos' })}`,
      }),
    },
  ];
}

export const suite: BenchSuite = {
  name: 'Búsqueda de registros',
  async seed(db) {
    await createUser(db, { email: EMAIL, role: 'admin', password: PASSWORD });
    await seedBenchRecords(db, RECORDS);
  },
  cases: [
    {
      name: `GET búsqueda en todos los municipios, palabras variadas (${RECORDS.toLocaleString('es')} registros)`,
      connections: CONNECTIONS,
      targetP99: 300,
      requests: (origin) =>
        searches(origin, [
          'María',
          'gonzalez',
          '0414',
          'Sector',
          'UBCH 1101',
          'PÉREZ',
          'José Luis',
          'nadie se llama así',
        ]),
    },
    {
      name: 'GET búsqueda sin resultados (lee la tabla entera)',
      connections: CONNECTIONS,
      targetP99: 300,
      requests: (origin) => searches(origin, ['nadie se llama así', 'zzqx', '99999999999']),
    },
  ],
};
