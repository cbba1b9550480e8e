// The rehearsal (npm run cli -- ensayo, decision 103) against Comando as it runs in production: nginx with
// the shipped site file (HTTPS) in front of two instances on one PostgreSQL. Run by the `proxy` project.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { runRehearsal, signInAdmin } from '#server/integrations/rehearsal/rehearsal';
import { type BehindNginx, PROXY_ACCOUNTS, startBehindNginx } from './support/behind-nginx';

const SIGNING_KEY = 'clave-del-webhook-del-ensayo';

let proxy: BehindNginx;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  proxy = await startBehindNginx({
    unvoted: 60,
    phase: 'preparacion',
    departments: ['cabimas', 'lagunillas'],
    smsSigningKey: SIGNING_KEY,
  });
});

test.afterAll(async () => {
  await proxy?.stop();
});

/** What the database and the shared data folder hold (the rehearsal must leave it so). */
async function stateOf() {
  const client = new pg.Client({ connectionString: proxy.databaseUrl });
  await client.connect();
  try {
    const count = async (table: string) => Number((await client.query(`select count(*) as n from ${table}`)).rows[0].n);
    const files: string[] = [];
    const walk = (dir: string) => {
      if (!fs.existsSync(dir)) return;
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else files.push(path.relative(proxy.dataDir, full));
      }
    };
    walk(path.join(proxy.dataDir, 'photos'));
    return {
      phase: (await client.query('select phase from election')).rows[0]?.phase ?? 'preparacion',
      records: (await client.query('select id, vote_revision, updated_at from records order by id')).rows,
      users: (await client.query('select email, role, disabled from users order by email')).rows,
      ballots: await count('record_votes'),
      photos: await count('photos'),
      members: await count('department_members'),
      phones: await count('user_phones'),
      sms: await count('sms_messages'),
      devices: await count('field_devices'),
      items: await count('field_items'),
      files: files.sort(),
    };
  } finally {
    await client.end();
  }
}

test('a small rehearsal through nginx and two instances on PostgreSQL holds every invariant and leaves nothing behind', async () => {
  test.setTimeout(240_000);
  // The self-signed certificate of this nginx (a real deployment has a real one).
  const tls = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  try {
    const before = await stateOf();
    const report = await runRehearsal({
      url: proxy.origin,
      phones: 5,
      minutes: 5,
      projectors: 10,
      // The seeded records have no SMS code (the SMS path is in rehearsal.test.ts), and nginx keeps /metrics
      // to the instances (Prometheus reads each one): neither goes through here.
      sms: 0,
      readOnly: false,
      link: { upKbps: 1_000_000, downKbps: 1_000_000, rttMs: 0, cutEveryMs: null, cutEveryRequests: 4 },
      itemsPerPhone: 3,
      photoSide: 320,
      retryBaseMs: 10,
      reportEveryMs: 200,
      readEveryMs: 200,
      smsSigningKey: SIGNING_KEY,
      signIn: (admin) =>
        signInAdmin(admin, { email: PROXY_ACCOUNTS.admin, password: PROXY_ACCOUNTS.password }, async () => ''),
      out: () => {},
    });
    expect(report.refused).toBeNull();
    expect(report.notes).toEqual([]);
    for (const v of report.verdicts) expect(v, v.detail).toMatchObject({ ok: true });
    expect(report.verdicts.length).toBeGreaterThanOrEqual(10);
    expect(report.errors.filter((e) => e.kind.startsWith('SMS') || e.kind.startsWith('métricas'))).toEqual([]);
    expect(report.counts.stored).toEqual({ votes: 15, photos: 10 });
    expect(report.counts.erased).toMatchObject({ votes: 15, photos: 10, filesLeft: 0, accounts: 5 });
    expect(report.counts.late).toEqual({ sent: 5, accepted: 0, refused: { '401': 5 } });
    expect(await stateOf()).toEqual(before);
  } finally {
    if (tls === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = tls;
  }
});
