// Comando as it runs in production: Debian's nginx with docs/deploy/nginx-comando.conf (a self-signed
// certificate made here by openssl) in front of two instances on one PostgreSQL. Run by the `proxy`
// project only (playwright.config.ts); skipped by `npm test` where nginx is not installed.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { type Browser, expect, type Page, request, test } from '@playwright/test';
import pg from 'pg';
import sharp from 'sharp';
import { createAccountsService } from '#server/features/people/accounts.service';
import { grantDepartment } from '#server/platform/access/access.service';
import { migrateToLatest, openDatabase } from '#server/platform/db/database';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { testPasswordHash } from '#server/testing/auth-helpers';
import { seedSyntheticResults } from '#server/testing/results-synthetic';
import { freePort, type ServerProcess, startServerProcess } from '#server/testing/server-process';
import { findPostgresBin, type PostgresCluster, startPostgresCluster } from '#tests/support/postgres-cluster';
import { signIn } from './support/login';

const PASSWORD = 'clave-proxy-2026';
const ADMIN = 'jefa.proxy@e2e.example';
const VALIDATOR = 'validador.proxy@e2e.example';
const SLUG = 'cabimas';
const METRICS_TOKEN = 'metricas-proxy-e2e-0123456789abcdef0123456789';
/** nginx connects to the instances from this address, so the proxy's address and the client's differ. */
const PROXY_SOURCE = '127.0.0.2';

test.describe.configure({ mode: 'serial' });

let cluster: PostgresCluster;
let databaseUrl: string;
let dir: string;
let nginx: ChildProcess;
let origin: string;
const instances: { name: 'A' | 'B'; port: number; server?: ServerProcess }[] = [
  { name: 'A', port: 0 },
  { name: 'B', port: 0 },
];

/** The site file as shipped, pointed at this test's ports and certificate. */
function siteFrom(shipped: string, ports: { https: number; http: number; a: number; b: number }, cert: string) {
  return shipped
    .replace('server 127.0.0.1:3001;', `server 127.0.0.1:${ports.a};`)
    .replace('server 127.0.0.1:3002;', `server 127.0.0.1:${ports.b};`)
    .replace('listen 80;', `listen 127.0.0.1:${ports.http};`)
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`)
    .replace(/^\s*listen \[::\]:\d+.*$/gm, '')
    .replace(/\/etc\/letsencrypt\/live\/comando\.example\.org\/fullchain\.pem/, `${cert}.crt`)
    .replace(/\/etc\/letsencrypt\/live\/comando\.example\.org\/privkey\.pem/, `${cert}.key`);
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const nginxBin = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((f) => fs.existsSync(f));
  const pgBin = findPostgresBin();
  if (!nginxBin || !pgBin)
    throw new Error('El proyecto proxy necesita nginx y PostgreSQL: apt-get install nginx postgresql');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-proxy-'));

  cluster = await startPostgresCluster(pgBin);
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('create database comando_proxy');
  await admin.end();
  databaseUrl = cluster.url.replace(/\/postgres$/, '/comando_proxy');
  const db = await openDatabase({ dataDir: '', databaseUrl });
  const now = new Date();
  await migrateToLatest(db);
  await seedReferenceData(db, now, 'Comando Zulia');
  const accounts = createAccountsService(db.kysely, () => now, testPasswordHash);
  const actor = { email: 'e2e', ip: null };
  await accounts.createUser({ email: ADMIN, password: PASSWORD, role: 'admin' }, actor);
  await accounts.createUser({ email: VALIDATOR, password: PASSWORD, role: 'staff' }, actor);
  await grantDepartment(db.kysely, VALIDATOR, SLUG, actor, now);
  await seedSyntheticResults(db.kysely, { departments: [SLUG], unvoted: 10, label: 'Votante', now });
  await db.close();

  const ports = { https: await freePort(), http: await freePort(), a: await freePort(), b: await freePort() };
  instances[0]!.port = ports.a;
  instances[1]!.port = ports.b;
  origin = `https://127.0.0.1:${ports.https}`;
  // The same data folder for both, as on one machine: a resumable upload may go on through the other.
  const dataDir = path.join(dir, 'data');
  await Promise.all(
    instances.map(async (instance) => {
      instance.server = await startServerProcess({
        port: instance.port,
        dataDir,
        name: `detrás de nginx ${instance.name}`,
        env: {
          NODE_ENV: 'production',
          DATABASE_URL: databaseUrl,
          PUBLIC_ORIGIN: origin,
          TRUST_PROXY: '1',
          METRICS_TOKEN,
        },
      });
    }),
  );

  const cert = path.join(dir, 'comando');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      `${cert}.key`,
      '-out',
      `${cert}.crt`,
    ],
    { stdio: 'pipe' },
  );
  const shipped = fs.readFileSync(path.resolve('docs/deploy/nginx-comando.conf'), 'utf8');
  fs.writeFileSync(path.join(dir, 'comando.conf'), siteFrom(shipped, ports, cert));
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(dir, temp));
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  proxy_bind ${PROXY_SOURCE};
  include ${dir}/comando.conf;
}
`,
  );
  nginx = spawn(
    nginxBin,
    ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log'), '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  await expect
    .poll(
      async () => {
        const api = await request.newContext({ ignoreHTTPSErrors: true });
        try {
          return (await api.get(`${origin}/api/ready`)).status();
        } catch {
          return 0;
        } finally {
          await api.dispose();
        }
      },
      {
        timeout: 30_000,
        message: `nginx no arrancó: ${fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : ''}`,
      },
    )
    .toBe(200);
});

test.afterAll(async () => {
  nginx?.kill('SIGTERM');
  await Promise.all(instances.map((i) => i.server?.stop()));
  await cluster?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** One number of an instance's /metrics (read straight from the instance, as Prometheus does). */
async function metric(port: number, line: RegExp): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await res.text();
  const found = text.split('\n').find((l) => line.test(l));
  return found ? Number(found.split(' ').pop()) : 0;
}

async function browserOn(browser: Browser, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ baseURL: origin, ignoreHTTPSErrors: true, locale: 'es-VE', viewport });
  return { context, page: await context.newPage() };
}

async function lastLoginAddress(email: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows = await client.query<{ ip: string | null }>(
      `select ip from audit_log where action = 'auth.login' and actor_email = $1 order by id desc limit 1`,
      [email],
    );
    return rows.rows[0]?.ip ?? null;
  } finally {
    await client.end();
  }
}

async function vote(voter: Page, n: number): Promise<void> {
  const name = `Persona Votante 1 ${n}`;
  await voter.goto(`/validation/${SLUG}`);
  await voter.getByRole('button', { name: `Votar: ${name}`, exact: true }).click();
  const dialog = voter.getByRole('dialog', { name: 'Votar' });
  await dialog.getByRole('checkbox', { name: /FA/ }).check();
  const answered = voter.waitForResponse((r) => r.url().includes('/vote') && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Votar' }).click();
  expect((await answered).status()).toBe(201);
}

test('through nginx: Secure cookies, HSTS, the client’s address in the audit log, a vote on one instance live on the projector of the other', async ({
  browser,
}) => {
  const validator = await browserOn(browser, { width: 390, height: 844 });
  const screen = await browserOn(browser, { width: 1920, height: 1080 });
  try {
    const login = await validator.page.goto('/login');
    expect(login?.headers()['strict-transport-security']).toMatch(/max-age=\d+/);
    await signIn(validator.page, VALIDATOR, PASSWORD);
    const cookies = await validator.context.cookies();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie, cookie.name).toMatchObject({ secure: true, httpOnly: true });
    // The browser's address (nginx appends it to X-Forwarded-For), not nginx's own.
    expect(await lastLoginAddress(VALIDATOR)).toBe('127.0.0.1');

    await screen.page.goto('/login');
    await signIn(screen.page, ADMIN, PASSWORD);
    await screen.page.goto('/resultados?proyector=1');
    const projector = screen.page.getByRole('dialog', { name: 'RESULTADOS POSTULACIONES' });
    await expect(projector.getByTestId('estado-en-vivo')).toHaveText('En vivo');
    const fa = projector.getByTestId('candidato-FA').getByTestId('votos');
    await expect(fa).toHaveText('0 votos');

    // The projector's stream is open on one instance: the votes must come through the other.
    const streams = async () => Promise.all(instances.map((i) => metric(i.port, /^comando_live_streams /)));
    await expect.poll(streams).toEqual(expect.arrayContaining([1, 0]));
    const streaming = (await streams()).indexOf(1);
    const other = instances[1 - streaming]!;
    const votesOn = (port: number) => metric(port, /^comando_votes_stored_total /);

    // least_conn sends a new request to the instance without the open stream; each try is another record.
    let votes = 0;
    while ((await votesOn(other.port)) === 0 && votes < 3) {
      votes += 1;
      await vote(validator.page, votes);
      const sent = Date.now();
      await expect(fa).toHaveText(`${votes} votos`);
      test.info().annotations.push({ type: 'voto → proyector', description: `${Date.now() - sent} ms` });
    }
    expect(await votesOn(other.port)).toBe(1);
    expect(await votesOn(instances[streaming]!.port)).toBe(votes - 1);
  } finally {
    await validator.context.close();
    await screen.context.close();
  }
});

/** A JPEG of about a megabyte and a half (noise compresses badly), like a ballot photo from a phone. */
async function phoneSizedJpeg(): Promise<Buffer> {
  const width = 1600;
  const height = 1200;
  const noise = Buffer.alloc(width * height * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2_654_435_761) >>> 24;
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

test('through nginx: a photo upload cut on the way continues from what got through', async () => {
  const api = await request.newContext({ baseURL: origin, ignoreHTTPSErrors: true, extraHTTPHeaders: { origin } });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    expect((await api.post('/api/auth/login', { data: { email: VALIDATOR, password: PASSWORD } })).status()).toBe(200);
    const cookie = (await api.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const record = (await client.query<{ id: number }>(`select id from records where nombre = 'Persona Votante 1 10'`))
      .rows[0]!.id;

    const photo = await phoneSizedJpeg();
    const b64 = (v: string | number) => Buffer.from(String(v)).toString('base64');
    const created = await api.post('/api/photo-uploads', {
      headers: {
        'tus-resumable': '1.0.0',
        'upload-length': String(photo.length),
        'upload-metadata': `slug ${b64(SLUG)},recordId ${b64(record)},kind ${b64('gobernador')}`,
        'idempotency-key': randomUUID(),
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const location = new URL(created.headers().location!, origin).pathname;
    const id = location.split('/').pop()!;
    const onDisk = path.join(dir, 'data', 'uploads', 'tus', id);

    // Two thirds of the photo leave the phone; once the app has some of it on disk, the connection drops.
    const cutAt = Math.floor((photo.length * 2) / 3);
    await new Promise<void>((resolve, reject) => {
      const patch = https.request(`${origin}${location}`, {
        method: 'PATCH',
        rejectUnauthorized: false,
        headers: {
          cookie,
          origin,
          'tus-resumable': '1.0.0',
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': String(photo.length),
        },
      });
      patch.on('error', () => resolve());
      patch.on('response', (res) =>
        reject(new Error(`El PATCH cortado recibió respuesta (${res.statusCode}) antes del corte`)),
      );
      patch.write(photo.subarray(0, cutAt));
      // A backstop for a hang, not a speed check: a proxy that holds the body until it is whole never
      // lets a byte through.
      const giveUp = Date.now() + 30_000;
      const waitForBytes = setInterval(() => {
        const arrived = fs.existsSync(onDisk) && fs.statSync(onDisk).size > 0;
        if (arrived || Date.now() > giveUp) {
          clearInterval(waitForBytes);
          patch.destroy();
          if (arrived) resolve();
          else
            reject(
              new Error(
                'Nada llegó a la app mientras la foto viajaba: el proxy retiene el cuerpo hasta tenerlo entero',
              ),
            );
        }
      }, 20);
    });

    // The app kept what nginx passed on as it came (request buffering off), not nothing.
    let offset = 0;
    await expect
      .poll(async () => {
        const head = await api.head(location, { headers: { 'tus-resumable': '1.0.0' } });
        offset = Number(head.headers()['upload-offset'] ?? -1);
        return head.status();
      })
      .toBe(200);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(cutAt);

    const rest = await api.patch(location, {
      headers: {
        'tus-resumable': '1.0.0',
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
      },
      data: photo.subarray(offset),
    });
    expect(rest.status(), await rest.text()).toBe(201);
    const stored = await client.query(`select size_bytes from photos where record_id = $1 and kind = 'gobernador'`, [
      record,
    ]);
    expect(stored.rows).toHaveLength(1);
  } finally {
    await client.end();
    await api.dispose();
  }
});
