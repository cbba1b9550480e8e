import { createUser } from '#server/testing/auth-helpers';
import type { BenchSuite } from './types';

const EMAIL = 'bench.admin@comando.example';
const PASSWORD = 'clave-de-rendimiento-123';

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

export const suite: BenchSuite = {
  name: 'Acceso',
  async seed(db) {
    await createUser(db, { email: EMAIL, role: 'admin', password: PASSWORD });
  },
  cases: [
    {
      name: 'POST /api/auth/login',
      connections: 10,
      targetP99: 100,
      requests: (origin) => [
        {
          method: 'POST',
          path: '/api/auth/login',
          headers: { 'content-type': 'application/json', origin },
          body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
        },
      ],
    },
    {
      name: 'GET /api/auth/session (con sesión)',
      connections: 50,
      targetP99: 5,
      requests: async (origin) => [
        { method: 'GET', path: '/api/auth/session', headers: { cookie: await signIn(origin) } },
      ],
    },
  ],
};
