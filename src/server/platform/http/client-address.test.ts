import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/platform/config/config';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#server/testing/test-app';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const PROXY = '10.0.0.2';
const CLIENT = '198.51.100.7';

/** A failed sign-in as it reaches us through the proxy: the client wrote the first hop, the proxy appended the second. */
function failedSignIn(t: TestApp, forged: string, remoteAddress = PROXY) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress,
    headers: { origin: TEST_ORIGIN, 'x-forwarded-for': `${forged}, ${CLIENT}` },
    payload: { email: `nadie-${forged}@comando.test`, password: 'no-es-la-clave' },
  });
}

async function auditedAddresses(t: TestApp): Promise<string[]> {
  const rows = await t.db.kysely
    .selectFrom('audit_log')
    .select('ip')
    .where('action', '=', 'auth.login_failed')
    .execute();
  return [...new Set(rows.map((r) => r.ip ?? ''))];
}

describe('the client address behind a proxy (TRUST_PROXY)', () => {
  for (const setting of ['1', PROXY, '10.0.0.0/8']) {
    it(`TRUST_PROXY=${setting}: a forged X-Forwarded-For hop neither escapes the per-address limit nor reaches the audit log`, async () => {
      t = await createTestApp({ trustProxy: loadConfig({ TRUST_PROXY: setting }).trustProxy });
      const statuses: number[] = [];
      // A new forged address on every attempt, as in the attack; 20 failures block an address.
      for (let i = 1; i <= 21; i++) statuses.push((await failedSignIn(t, `203.0.113.${i}`)).statusCode);
      expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
      expect(statuses[20]).toBe(429);
      expect(await auditedAddresses(t)).toEqual([CLIENT]);
    });
  }

  it('a client that connects directly cannot name itself when only listed proxies are trusted', async () => {
    t = await createTestApp({ trustProxy: loadConfig({ TRUST_PROXY: PROXY }).trustProxy });
    await failedSignIn(t, '203.0.113.1', '192.0.2.50');
    expect(await auditedAddresses(t)).toEqual(['192.0.2.50']);
  });

  it('TRUST_PROXY=0: everyone is the peer that connected', async () => {
    t = await createTestApp({ trustProxy: loadConfig({ TRUST_PROXY: '0' }).trustProxy });
    await failedSignIn(t, '203.0.113.1');
    expect(await auditedAddresses(t)).toEqual([PROXY]);
  });
});
