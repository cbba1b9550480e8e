// Comando as it runs in production: Debian's nginx with docs/deploy/nginx-comando.conf (a self-signed
// certificate made here by openssl) in front of two instances on one PostgreSQL. Used by the proxy
// end-to-end project (tests/e2e/proxy.spec.ts) and by scripts/proxy-latency.ts.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDepartmentsService } from '#server/features/departments/departments.service';
import { createAccountsService } from '#server/features/people/accounts.service';
import { migrateToLatest, openDatabase } from '#server/platform/db/database';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { createSettingsRepository } from '#server/platform/settings/settings.repository';
import { testPasswordHash } from '#server/testing/auth-helpers';
import { seedSyntheticResults } from '#server/testing/results-synthetic';
import { freePort, type ServerProcess, startServerProcess } from '#server/testing/server-process';
import { setElectionPhase } from '#server/testing/test-app';
import { SECOND_FACTOR_SETTING } from '#shared/features/auth/second-factor';
import { findPostgresBin, startPostgresCluster } from '#tests/support/postgres-cluster';

export const PROXY_ACCOUNTS = {
  password: 'clave-proxy-2026',
  admin: 'jefa.proxy@e2e.example',
  validator: 'validador.proxy@e2e.example',
  /** The validator's municipality; its records are named 'Persona Votante 1 <n>'. */
  slug: 'cabimas',
} as const;
export const PROXY_METRICS_TOKEN = 'metricas-proxy-e2e-0123456789abcdef0123456789';
/** nginx connects to the instances from this address, so the proxy's address and the client's differ. */
export const PROXY_SOURCE = '127.0.0.2';

export interface Instance {
  name: 'A' | 'B';
  port: number;
  server: ServerProcess;
}

export interface BehindNginx {
  /** https://127.0.0.1:<port>: nginx, as the browser reaches it. */
  origin: string;
  databaseUrl: string;
  /** The data folder both instances share. */
  dataDir: string;
  instances: Instance[];
  /** One number of an instance's /metrics, read straight from it as Prometheus does (0 when absent). */
  metric(instance: Instance, line: RegExp): Promise<number>;
  stop(): Promise<void>;
}

/** The site file as shipped, pointed at these ports and this certificate. */
function siteFrom(shipped: string, ports: { https: number; http: number; a: number; b: number }, cert: string) {
  return shipped
    .replace('server 127.0.0.1:3001;', `server 127.0.0.1:${ports.a};`)
    .replace('server 127.0.0.1:3002;', `server 127.0.0.1:${ports.b};`)
    .replace('listen 80;', `listen 127.0.0.1:${ports.http};`)
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`)
    .replace(/^\s*listen \[::\]:\d+.*$/gm, '')
    .replace('/etc/letsencrypt/live/comando.example.org/fullchain.pem', `${cert}.crt`)
    .replace('/etc/letsencrypt/live/comando.example.org/privkey.pem', `${cert}.key`);
}

function readyThroughNginx(origin: string): Promise<number> {
  return new Promise((resolve) => {
    https
      .get(`${origin}/api/ready`, { rejectUnauthorized: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', () => resolve(0));
  });
}

/** Starts PostgreSQL, seeds it (`unvoted` records to vote on), two instances and nginx in front. */
export async function startBehindNginx(options: {
  unvoted: number;
  /** 'preparacion' for the rehearsal (it starts from there with nothing stored); 'en_curso' unless told. */
  phase?: 'preparacion' | 'en_curso';
  /** Where the unvoted records go: the validator's municipality unless told. */
  departments?: string[];
  /** SMS votes on, with this webhook signing key (the gateway's address answers nothing: no reply is sent). */
  smsSigningKey?: string;
}): Promise<BehindNginx> {
  const nginxBin = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((f) => fs.existsSync(f));
  const pgBin = findPostgresBin();
  if (!nginxBin || !pgBin) {
    throw new Error('Comando detrás de nginx necesita nginx y PostgreSQL: apt-get install nginx postgresql');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-proxy-'));
  const stops: (() => Promise<unknown> | unknown)[] = [() => fs.rmSync(dir, { recursive: true, force: true })];
  const stop = async () => {
    for (const done of stops.splice(0).reverse()) await done();
  };
  try {
    const cluster = await startPostgresCluster(pgBin);
    stops.push(() => cluster.stop());
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('create database comando_proxy');
    await admin.end();
    const databaseUrl = cluster.url.replace(/\/postgres$/, '/comando_proxy');
    const db = await openDatabase({ dataDir: '', databaseUrl });
    const now = new Date();
    await migrateToLatest(db);
    await seedReferenceData(db, now, 'Comando Zulia');
    // The day is under way: its validators vote and send photos (or, for the rehearsal, in Preparación).
    await setElectionPhase(db, options.phase ?? 'en_curso', now);
    // Production, where admins need a second factor by default (decision 080): this admin signs in with
    // the password alone, as the second factor has its own end-to-end test.
    await createSettingsRepository(db.kysely).set(SECOND_FACTOR_SETTING, '0', now);
    const accounts = createAccountsService(db.kysely, () => now, testPasswordHash);
    const actor = { email: 'e2e', ip: null };
    const { password, slug } = PROXY_ACCOUNTS;
    await accounts.createUser({ email: PROXY_ACCOUNTS.admin, password, role: 'admin' }, actor);
    await accounts.createUser({ email: PROXY_ACCOUNTS.validator, password, role: 'staff' }, actor);
    await createDepartmentsService(db.kysely, () => now).grantAccess(PROXY_ACCOUNTS.validator, slug, actor);
    await seedSyntheticResults(db.kysely, {
      departments: options.departments ?? [slug],
      unvoted: options.unvoted,
      label: 'Votante',
      now,
    });
    await db.close();

    const ports = { https: await freePort(), http: await freePort(), a: await freePort(), b: await freePort() };
    const origin = `https://127.0.0.1:${ports.https}`;
    // One data folder for both, as on one machine: a resumable upload may go on through the other.
    const dataDir = path.join(dir, 'data');
    const start = async (name: 'A' | 'B', port: number): Promise<Instance> => {
      const server = await startServerProcess({
        port,
        dataDir,
        name: `detrás de nginx ${name}`,
        env: {
          NODE_ENV: 'production',
          DATABASE_URL: databaseUrl,
          PUBLIC_ORIGIN: origin,
          TRUST_PROXY: '1',
          METRICS_TOKEN: PROXY_METRICS_TOKEN,
          ...(options.smsSigningKey
            ? {
                SMS_GATEWAY_URL: 'http://127.0.0.1:9/3rdparty/v1',
                SMS_GATEWAY_LOGIN: 'ensayo',
                SMS_GATEWAY_PASSWORD: 'ensayo',
                SMS_WEBHOOK_SIGNING_KEY: options.smsSigningKey,
              }
            : {}),
        },
      });
      stops.push(() => server.stop());
      return { name, port, server };
    };
    const instances = await Promise.all([start('A', ports.a), start('B', ports.b)]);

    const cert = path.join(dir, 'comando');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'].concat([
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        `${cert}.key`,
        '-out',
        `${cert}.crt`,
      ]),
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
events { worker_connections 1024; }
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
    const errorLog = path.join(dir, 'error.log');
    const nginx: ChildProcess = spawn(
      nginxBin,
      ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', errorLog, '-g', 'daemon off;'],
      { stdio: 'ignore' },
    );
    stops.push(
      () =>
        new Promise<void>((resolve) => {
          if (nginx.exitCode !== null) return resolve();
          nginx.once('exit', () => resolve());
          nginx.kill('SIGTERM');
        }),
    );
    // A backstop for a hang, not a speed check.
    const deadline = Date.now() + 30_000;
    while ((await readyThroughNginx(origin)) !== 200) {
      if (nginx.exitCode !== null || Date.now() > deadline) {
        const log = fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : '';
        throw new Error(`nginx no arrancó delante de la app: ${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    return {
      origin,
      databaseUrl,
      dataDir,
      instances,
      async metric(instance, line) {
        const res = await fetch(`http://127.0.0.1:${instance.port}/metrics`, {
          headers: { authorization: `Bearer ${PROXY_METRICS_TOKEN}` },
        });
        const found = (await res.text()).split('\n').find((l) => line.test(l));
        return found ? Number(found.split(' ').pop()) : 0;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
