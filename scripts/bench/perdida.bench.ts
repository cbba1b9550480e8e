// `npm run bench -- perdida`: the server's machine is lost in the middle of the day (decision 135).
//
// The server runs with Litestream copying its database off the machine (PERDIDA_REPLICA=file, a folder,
// the default; or s3, the S3 stand-in), or on a PostgreSQL primary with a streaming standby applying each
// commit before it is acknowledged (PERDIDA_REPLICA=standby, docs/deploy/postgresql-standby.md, with the
// PostgreSQL binaries installed), and its photos in a bucket (the S3 stand-in). PERDIDA_PHONES
// phones (30), each the app's own outbox code in Node behind its own bad link (the field bench's model:
// CAMPO_UP_KBPS 256 kbit/s up, CAMPO_DOWN_KBPS 1 Mbit/s down, CAMPO_RTT_MS 300 ms, a cut every
// CAMPO_CUT_S 20 s), each vote a record and send its three photos, one record every PERDIDA_GAP_S (8 s)
// or so, for PERDIDA_SECONDS (180). At a random moment in the middle of the run the machine is gone: the
// server and its Litestream (or its PostgreSQL primary) killed with SIGKILL, the data folder (and the
// primary's) deleted. A new folder is restored from the copy (`npm run cli -- restore --desde-replica`),
// or the standby promoted (`pg_ctl promote`) as an operator would, and a server started on it, on the
// same address; the phones reconnect, see the new epoch, ask which of their items it has and send again
// the rest. Printed: what the server acknowledged, what is there after the recovery, lost and doubled,
// the time from the kill to serving again, and the copy's lag over the run (Litestream's, or the
// standby's replay lag) as the server reports it.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { type Db, openDatabase } from '#server/platform/db/database';
import { createUser } from '#server/testing/auth-helpers';
import { type S3Local, startS3Local } from '#server/testing/s3-local';
import { type ServerProcess, startServerProcess } from '#server/testing/server-process';
import type { ItemsHeld } from '#shared/features/election/election';
import { IDEMPOTENCY_KEY_HEADER } from '#shared/platform/idempotency';
import { sendResumablePhoto } from '#web/features/records/api/send-photo-resumable';
import { memoryDeviceStore } from '#web/features/records/device/device-store';
import { createOutbox, type Outbox, type SendAnswer, type Transport } from '#web/features/records/outbox/outbox';
import { ApiError } from '#web/platform/lib/api-client';
import { type BadNetwork, startBadNetwork } from '../../tests/support/bad-network-proxy';
import { findPostgresBin, type StandbyPair, startStandbyPair } from '../../tests/support/postgres-cluster';
import { seedBenchRecords } from './data/records-seed';
import type { BenchSuite } from './types';

const run = promisify(execFile);
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const NETWORK = {
  upKbps: env('CAMPO_UP_KBPS', 256),
  downKbps: env('CAMPO_DOWN_KBPS', 1000),
  rttMs: env('CAMPO_RTT_MS', 300),
  cutEveryMs: env('CAMPO_CUT_S', 20) * 1000,
};
const PHONES = env('PERDIDA_PHONES', 30);
const RUN_S = env('PERDIDA_SECONDS', 180);
const GAP_S = env('PERDIDA_GAP_S', 8);
/** After the run, how long the phones may take to send everything again (a bound, not a wait). */
const DRAIN_LIMIT_S = env('PERDIDA_DRAIN_S', 600);
const REPLICA =
  process.env.PERDIDA_REPLICA === 's3' || process.env.PERDIDA_REPLICA === 'standby'
    ? process.env.PERDIDA_REPLICA
    : 'file';
const COPY = { file: 'Litestream a una carpeta', s3: 'Litestream a S3', standby: 'PostgreSQL en espera' }[REPLICA];
const S3_PORT = env('PERDIDA_S3_PORT', 4397);
const PORT = Number(process.env.BENCH_PORT ?? 4390);

const SLUG = 'mara';
const PASSWORD = 'clave-de-perdida-2026';
const KINDS = ['gobernador', 'an', 'clez'] as const;
const METRICS_TOKEN = 'metricas-de-la-perdida-del-servidor-0123456789';
const scratch = path.join(os.tmpdir(), `comando-perdida-${process.pid}`);
const replicaDir = path.join(scratch, 'copia');
const email = (n: number) => `perdida.${String(n).padStart(2, '0')}@comando.example`;
let ids: number[] = [];
let s3: S3Local | undefined;
let pair: StandbyPair | undefined;
/** The server started on the recovered copy (stopped by `teardown` too, should the run end early). */
let recovered: ServerProcess | undefined;

/** Settings the first server and the restored one share: the copy, the bucket, the keys kept off the machine. */
const serverEnv: Record<string, string> = {
  ...(REPLICA === 'file' && { REPLICA_URL: `file://${replicaDir}` }),
  ...(REPLICA === 's3' && {
    REPLICA_URL: 's3://comando-perdida/litestream',
    REPLICA_S3_ENDPOINT: `http://127.0.0.1:${S3_PORT}`,
    REPLICA_S3_ACCESS_KEY_ID: 'S3RVER',
    REPLICA_S3_SECRET_ACCESS_KEY: 'S3RVER',
  }),
  STORAGE: 's3',
  S3_ENDPOINT: `http://127.0.0.1:${S3_PORT}`,
  S3_BUCKET: 'comando-perdida',
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
  METRICS_TOKEN,
  SECOND_FACTOR_KEY: Buffer.alloc(32, 9).toString('base64'),
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1).replace('.', ',')} s`;

async function signIn(origin: string, who: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: who, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${res.status}: ${await res.text()}`);
  return res.headers.get('set-cookie')?.split(';')[0] ?? '';
}

/** Any answer, or ApiError status 0 when there was none (as the app's fetchers do). */
async function post(url: string, init: RequestInit, signal: AbortSignal): Promise<SendAnswer> {
  try {
    const res = await fetch(url, { ...init, method: 'POST', signal });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, body };
  } catch (error) {
    throw new ApiError(0, error instanceof Error ? error.message : String(error));
  }
}

interface Acked {
  kind: 'vote' | (typeof KINDS)[number];
  recordId: number;
  at: number;
}

interface Phone {
  email: string;
  outbox: Outbox;
  network: BadNetwork;
  epoch: { value: number | null };
}

/** One phone: the app's outbox, sending through its own bad link, with the item keys acknowledged noted. */
function phone(who: string, cookie: string, origin: string, network: BadNetwork, acked: Map<string, Acked>): Phone {
  const headers = { cookie, origin };
  const noteAck = (answer: SendAnswer, key: string, entry: Omit<Acked, 'at'>) => {
    if (answer.status >= 200 && answer.status < 300 && !acked.has(key)) acked.set(key, { ...entry, at: Date.now() });
    return answer;
  };
  const transport: Transport = async (item, { onProgress, signal, onUploadUrl }) => {
    if (item.kind === 'vote') {
      const answer = await post(
        `${network.url}/api/validation/${item.slug}/records/${item.recordId}/vote`,
        {
          headers: { ...headers, 'content-type': 'application/json', [IDEMPOTENCY_KEY_HEADER]: item.key },
          body: JSON.stringify({ candidates: item.candidates }),
        },
        AbortSignal.any([signal, AbortSignal.timeout(30_000)]),
      );
      return noteAck(answer, item.key, { kind: 'vote', recordId: item.recordId });
    }
    const answer = await sendResumablePhoto({
      slug: item.slug,
      recordId: item.recordId,
      kind: item.photoKind,
      file: Buffer.from(item.file.data ?? new ArrayBuffer(0)),
      fileType: item.file.type,
      fileName: item.file.name,
      key: item.key,
      uploadUrl: item.uploadUrl ?? null,
      onUploadUrl,
      onProgress,
      signal,
      origin: network.url,
      headers,
    });
    return noteAck(answer, item.key, { kind: item.photoKind, recordId: item.recordId });
  };
  const epoch = { value: null as number | null };
  const outbox = createOutbox({
    store: memoryDeviceStore(),
    transport,
    askItems: async (keys) => {
      const answer = await post(
        `${network.url}/api/election/items`,
        { headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ keys }) },
        AbortSignal.timeout(15_000),
      );
      if (answer.status !== 200) throw new ApiError(answer.status, 'sin respuesta');
      return answer.body as ItemsHeld;
    },
    epochs: {
      read: () => epoch.value,
      write: (n) => {
        epoch.value = n;
      },
    },
  });
  outbox.connect(who);
  return { email: who, outbox, network, epoch };
}

/** Distinct JPEGs (noise, so that they weigh what a right-sized photo's detail does), a few per phone. */
async function photoFiles(count: number): Promise<Buffer[]> {
  return Promise.all(
    Array.from({ length: count }, (_, n) => {
      const raw = Buffer.alloc(480 * 360 * 3);
      for (let i = 0; i < raw.length; i++) raw[i] = (i * 31 + n * 7919 + ((i * n) % 251)) & 0xff;
      return sharp(raw, { raw: { width: 480, height: 360, channels: 3 } })
        .jpeg({ quality: 70 })
        .toBuffer();
    }),
  );
}

/**
 * comando_replica_lag_seconds from the server's /metrics with its kind ('litestream', 'standby'; 'none'
 * on a promoted standby, which has no standby of its own), or undefined while it does not answer.
 */
async function lagNow(origin: string): Promise<{ kind: string; lag: number } | undefined> {
  try {
    const res = await fetch(`${origin}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      signal: AbortSignal.timeout(2_000),
    });
    const match = /^comando_replica_lag_seconds\{kind="(\w+)"\} (\S+)$/m.exec(await res.text());
    return match ? { kind: match[1] as string, lag: Number(match[2]) } : undefined;
  } catch {
    return undefined;
  }
}

/** What the recovered server's database holds of each acknowledged item: there once, twice, or missing. */
async function tally(db: Db, acked: Map<string, Acked>) {
  let present = 0;
  let doubled = 0;
  const lost: string[] = [];
  for (const [key, item] of acked) {
    const found =
      item.kind === 'vote'
        ? await db.kysely
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('action', '=', 'record.vote')
            .where('target', '=', `record:${item.recordId}`)
            .executeTakeFirstOrThrow()
        : await db.kysely
            .selectFrom('photos')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('record_id', '=', item.recordId)
            .where('kind', '=', item.kind)
            .executeTakeFirstOrThrow();
    const n = Number(found.n);
    if (n >= 1) present++;
    else lost.push(key);
    if (n > 1) doubled++;
  }
  return { present, doubled, lost };
}

/**
 * A new machine with the copy: Litestream's restored into a new folder in one command, or the standby
 * promoted as docs/deploy/postgresql-standby.md says. Answers the new server's settings and what the
 * step printed.
 */
async function recover(restoredDir: string): Promise<{ env: Record<string, string>; said: string }> {
  if (REPLICA === 'standby') {
    if (!pair) throw new Error('sin servidor en espera');
    await pair.standby.promote();
    return { env: { DATABASE_URL: pair.standby.url }, said: '' };
  }
  const restore = await run(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', 'restore', '--desde-replica'], {
    env: { ...process.env, ...serverEnv, DATA_DIR: restoredDir, DATABASE_URL: '' },
  });
  return { env: {}, said: restore.stdout.trim() };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

export const suite: BenchSuite = {
  name: `Pérdida del servidor (${COPY})`,
  env: serverEnv,
  ...(REPLICA === 'standby' && {
    async database() {
      const bin = findPostgresBin();
      if (!bin) throw new Error('No se encontró PostgreSQL (apt-get install postgresql) para PERDIDA_REPLICA=standby.');
      pair = await startStandbyPair(bin);
      return pair.primary.url;
    },
  }),
  async teardown() {
    await recovered?.stop();
    await s3?.stop();
    await pair?.standby.stop();
    await pair?.primary.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  },
  async seed(db) {
    fs.mkdirSync(scratch, { recursive: true });
    // The bucket outlives the machine: photos, and the copy when it goes to S3.
    s3 = await startS3Local({ port: S3_PORT, bucket: 'comando-perdida' });
    for (let n = 1; n <= PHONES; n++) {
      await createUser(db, { email: email(n), role: 'staff', password: PASSWORD, departments: [SLUG] });
    }
    ids = (await seedBenchRecords(db, PHONES * 200, { departments: [SLUG] })).ids[SLUG] ?? [];
  },
  cases: [],
  async extra(origin, pid, dataDir) {
    const acked = new Map<string, Acked>();
    const phones: Phone[] = [];
    const lags: { lag: number; phase: 'antes' | 'después' }[] = [];
    let phase: 'antes' | 'después' = 'antes';
    let sampler: NodeJS.Timeout | undefined;
    let over = false;
    const hangUp = async () => {
      const all = phones.splice(0);
      for (const p of all) p.outbox.stop();
      await Promise.all(all.map((p) => p.network.close()));
    };
    try {
      const files = await photoFiles(PHONES * 3);
      const target = new URL(origin);
      for (let n = 1; n <= PHONES; n++) {
        const cookie = await signIn(origin, email(n));
        const network = await startBadNetwork({
          target: { host: target.hostname, port: Number(target.port) },
          ...NETWORK,
        });
        phones.push(phone(email(n), cookie, origin, network, acked));
      }
      // The copy's lag as the server reports it; a promoted standby has no copy of its own ('none').
      const copyKind = REPLICA === 'standby' ? 'standby' : 'litestream';
      sampler = setInterval(() => {
        void lagNow(origin).then((l) => {
          if (l?.kind === copyKind) lags.push({ lag: l.lag, phase });
        });
      }, 1_000);

      // Each phone records one voter every GAP_S seconds or so: the vote and its three photos.
      const started = Date.now();
      const endAt = started + RUN_S * 1000;
      const killAt = started + RUN_S * 1000 * (0.35 + Math.random() * 0.3);
      let captured = 0;
      const producing = phones.map(async (p, index) => {
        const mine = ids.slice(index * 200, index * 200 + 200);
        let next = 0;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * GAP_S * 1000));
        while (!over && Date.now() < endAt && next < mine.length) {
          const recordId = mine[next++] as number;
          const base = { owner: p.email, slug: SLUG, recordId, recordName: `Registro ${recordId}` };
          await p.outbox.addVote({ ...base, candidates: ['FA'] });
          for (const [i, kind] of KINDS.entries()) {
            const data = files[index * 3 + i] as Buffer;
            const bytes = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
            await p.outbox.addPhoto({
              ...base,
              photoKind: kind,
              file: { name: `IMG_${i + 1}.jpg`, type: 'image/jpeg', data: bytes, size: data.byteLength },
            });
          }
          captured += 4;
          await new Promise((resolve) => setTimeout(resolve, GAP_S * 1000 * (0.5 + Math.random())));
        }
      });

      // The machine is lost: the server and its Litestream, or its PostgreSQL, killed at once, the data
      // folders deleted.
      await new Promise((resolve) => setTimeout(resolve, killAt - Date.now()));
      const ackedAtKill = acked.size;
      const securedAtKill = phones.reduce(
        (sum, p) => sum + p.outbox.getSnapshot().items.filter((i) => i.state === 'sent' && i.securedAt).length,
        0,
      );
      const litestreamPid =
        REPLICA === 'standby'
          ? undefined
          : Number(fs.readFileSync(path.join(dataDir, 'litestream.pid'), 'utf8').trim());
      const killedAt = Date.now();
      process.kill(pid, 'SIGKILL');
      if (litestreamPid) process.kill(litestreamPid, 'SIGKILL');
      await pair?.primary.lose();
      fs.rmSync(dataDir, { recursive: true, force: true });
      phase = 'después';

      // A new machine with the copy, and the server started on it at the same address.
      const recoveredDir = path.join(scratch, 'datos-restaurados');
      fs.mkdirSync(recoveredDir, { recursive: true });
      const recoverStarted = Date.now();
      const copy = await recover(recoveredDir);
      const recoverMs = Date.now() - recoverStarted;
      recovered = await startServerProcess({
        port: PORT,
        dataDir: recoveredDir,
        name: 'restaurado',
        env: { NODE_ENV: 'production', ...serverEnv, ...copy.env },
      });
      const servingMs = Date.now() - killedAt;

      await Promise.all(producing);
      // The phones send what waits, and what the recovered server lacks, until nothing is left (bounded).
      const drainLimit = Date.now() + DRAIN_LIMIT_S * 1000;
      for (;;) {
        const left = phones.filter(
          (p) =>
            p.epoch.value !== 2 ||
            p.outbox.getSnapshot().items.some((i) => i.state === 'saved' || i.state === 'sending'),
        ).length;
        if (left === 0 || Date.now() > drainLimit) break;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      const drainedMs = Date.now() - killedAt;
      clearInterval(sampler);
      const items = phones.flatMap((p) => p.outbox.getSnapshot().items);
      const rejected = items.filter((i) => i.state === 'rejected').length;
      const resent = items.filter((i) => i.resent).length;
      const stillWaiting = items.filter((i) => i.state === 'saved' || i.state === 'sending').length;
      const refusals = new Map<string, number>();
      for (const i of items) {
        if (i.state !== 'rejected') continue;
        const why = `${i.rejection?.status} ${i.rejection?.message}`;
        refusals.set(why, (refusals.get(why) ?? 0) + 1);
      }
      for (const [why, n] of refusals) console.log(`rechazados: ${n} × ${why}`);
      const notCaughtUp = phones.filter((p) => p.epoch.value !== 2).length;
      await hangUp();

      // Read with the server stopped: every write is in the database.
      await recovered.stop();
      recovered = undefined;
      const db = await openDatabase({ dataDir: recoveredDir, databaseUrl: copy.env.DATABASE_URL });
      const { present, doubled, lost } = await tally(db, acked).finally(() => db.close());
      const before = lags.filter((l) => l.phase === 'antes').map((l) => l.lag);
      const after = lags.filter((l) => l.phase === 'después').map((l) => l.lag);
      const ackedBeforeKill = [...acked.values()].filter((a) => a.at <= killedAt).length;
      if (copy.said) console.log(copy.said);
      const lagOf = (xs: number[]) => (xs.length ? `${median(xs)} s / ${Math.max(...xs)} s` : 'sin copia');
      return [
        {
          suite: 'Pérdida',
          caso: `${PHONES} teléfonos, ${RUN_S} s, copia en ${{ file: 'carpeta', s3: 'S3', standby: 'servidor en espera' }[REPLICA]}; corte a los ${seconds(killedAt - started)}`,
          capturados: captured,
          'acusados (total)': acked.size,
          'acusados antes del corte': ackedBeforeKill,
          'asegurados en los teléfonos al corte': `${securedAtKill} de ${ackedAtKill}`,
          'presentes tras la recuperación': present,
          perdidos: lost.length,
          duplicados: doubled,
          'reenviados tras la restauración': resent,
          rechazados: rejected,
          'aún en los teléfonos al final': stillWaiting,
          'teléfonos sin ponerse al día': notCaughtUp,
          [REPLICA === 'standby' ? 'promoción (pg_ctl promote)' : 'restauración (cli)']: seconds(recoverMs),
          'del corte a servir': seconds(servingMs),
          'del corte a todo reenviado': seconds(drainedMs),
          'retraso de la copia antes (mediana / máx.)': lagOf(before),
          'retraso de la copia después (mediana / máx.)': lagOf(after),
          ok: lost.length === 0 && doubled === 0 && notCaughtUp === 0 ? 'sí' : 'NO',
        },
      ];
    } finally {
      over = true;
      clearInterval(sampler);
      await hangUp();
      await recovered?.stop();
    }
  },
};
