// `npm run bench -- campo`: a department sent from a phone on a bad 2G-class link (docs/decisions/049).
//
// A proxy in front of the real server limits the bandwidth (CAMPO_UP_KBPS, default 256 kbit/s up;
// CAMPO_DOWN_KBPS, 1 Mbit/s down), adds a round trip (CAMPO_RTT_MS, 300 ms) and cuts every connection
// every CAMPO_CUT_S seconds (20). Through it, the phone's own outbox code, in Node, sends CAMPO_RECORDS
// records (10), each a vote and three 3.5 MB phone JPEGs:
// - as the app sends them now: right-sized JPEGs (made here with sharp, as the phone's worker would)
//   through resumable uploads (tus-js-client);
// - as the app sent them before: the original photos in one multipart request each, from zero after
//   every cut, for at most CAMPO_OLD_CAP_S seconds (300): it may never finish.
// Then, in Chromium, how long the page's longest task is while a 12-megapixel photo is prepared.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { createUser } from '#server/testing/auth-helpers';
import { formatBytes } from '#shared/platform/format';
import { IDEMPOTENCY_KEY_HEADER } from '#shared/platform/idempotency';
import { RIGHT_SIZE } from '#web/features/photos/right-size';
import { sendResumablePhoto } from '#web/features/records/api/send-photo-resumable';
import { memoryDeviceStore } from '#web/features/records/device/device-store';
import { createOutbox, type SendAnswer, type Transport } from '#web/features/records/outbox/outbox';
import type { OutboxItem } from '#web/features/records/outbox/outbox-item';
import { ApiError } from '#web/platform/lib/api-client';
import { phonePhoto } from '../../tests/fixtures/phone-photos';
import { type BadNetwork, startBadNetwork } from '../../tests/support/bad-network-proxy';
import { seedBenchRecords } from './data/records-seed';
import type { BenchSuite } from './types';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const NETWORK = {
  upKbps: env('CAMPO_UP_KBPS', 256),
  downKbps: env('CAMPO_DOWN_KBPS', 1000),
  rttMs: env('CAMPO_RTT_MS', 300),
  cutEveryMs: env('CAMPO_CUT_S', 20) * 1000,
};
const RECORDS = env('CAMPO_RECORDS', 10);
const OLD_CAP_MS = env('CAMPO_OLD_CAP_S', 300) * 1000;
/** The new way has no cap of its own; this only stops a run that went wrong. */
const NEW_LIMIT_MS = env('CAMPO_NEW_LIMIT_S', 3600) * 1000;

const EMAIL = 'campo.validadora@comando.example';
const PASSWORD = 'clave-de-campo-2026';
const SLUGS = { resumable: 'mara', multipart: 'miranda', browser: 'baralt' } as const;
const KINDS = ['gobernador', 'an', 'clez'] as const;
let ids: Record<keyof typeof SLUGS, number[]> = { resumable: [], multipart: [], browser: [] };

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const seconds = (ms: number) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
const fraction = (n: number) => n.toFixed(2).replace('.', ',');

async function signIn(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${res.status}: ${await res.text()}`);
  return res.headers.get('set-cookie')?.split(';')[0] ?? '';
}

/** The phone's photos: three 3.5 MB camera JPEGs, and what the phone's worker makes of them. */
async function photos() {
  const originals = await Promise.all([1, 2, 3].map(async (n) => fs.readFileSync(await phonePhoto(n))));
  const rightSized = await Promise.all(
    originals.map((o) =>
      sharp(o)
        .rotate()
        .resize(RIGHT_SIZE.maxSide, RIGHT_SIZE.maxSide, { fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: Math.round(RIGHT_SIZE.quality * 100) })
        .toBuffer(),
    ),
  );
  return { originals, rightSized };
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

function voteTransport(network: BadNetwork, cookie: string, origin: string) {
  return (item: Extract<OutboxItem, { kind: 'vote' }>, signal: AbortSignal) =>
    post(
      `${network.url}/api/validation/${item.slug}/records/${item.recordId}/vote`,
      {
        headers: { cookie, origin, 'content-type': 'application/json', [IDEMPOTENCY_KEY_HEADER]: item.key },
        body: JSON.stringify({ candidates: item.candidates }),
      },
      AbortSignal.any([signal, AbortSignal.timeout(30_000)]),
    );
}

interface RunResult {
  done: boolean;
  ms: number;
  sent: number;
  upBytes: number;
  downBytes: number;
  cuts: number;
}

/**
 * The phone's outbox (the app's own code) sends `RECORDS` votes and their photos through a bad network,
 * with `transport` for photos; resolves when everything is sent or `limitMs` has passed.
 */
async function sendDepartment(
  origin: string,
  slug: string,
  recordIds: number[],
  files: Buffer[],
  photoTransport: (network: BadNetwork, cookie: string) => Transport,
  limitMs: number,
  label: string,
): Promise<RunResult> {
  const target = new URL(origin);
  const network = await startBadNetwork({ target: { host: target.hostname, port: Number(target.port) }, ...NETWORK });
  const cookie = await signIn(origin);
  const votes = voteTransport(network, cookie, origin);
  const photo = photoTransport(network, cookie);
  const outbox = createOutbox({
    store: memoryDeviceStore(),
    transport: (item, options) => (item.kind === 'vote' ? votes(item, options.signal) : photo(item, options)),
  });
  for (const recordId of recordIds) {
    const base = { owner: EMAIL, slug, recordId, recordName: `Registro ${recordId}` };
    await outbox.addVote({ ...base, candidates: ['FA'] });
    for (const [i, kind] of KINDS.entries()) {
      const data = files[i] as Buffer;
      const bytes = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
      await outbox.addPhoto({
        ...base,
        photoKind: kind,
        file: { name: `IMG_${i + 1}.jpg`, type: 'image/jpeg', data: bytes, size: data.byteLength },
      });
    }
  }
  const total = outbox.getSnapshot().items.length;
  const started = performance.now();
  outbox.connect(EMAIL);
  let lastLog = started;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const items = outbox.getSnapshot().items;
    const sent = items.filter((i) => i.state === 'sent').length;
    const finished = items.every((i) => i.state === 'sent' || i.state === 'rejected');
    const elapsed = performance.now() - started;
    if (performance.now() - lastLog > 30_000) {
      lastLog = performance.now();
      console.log(
        `${label}: ${sent}/${total} en el servidor, ${formatBytes(network.stats.upBytes)} subidos, ${seconds(elapsed)}`,
      );
    }
    if (finished || elapsed > limitMs) {
      outbox.stop();
      const result = {
        done: finished && sent === total,
        ms: elapsed,
        sent,
        upBytes: network.stats.upBytes,
        downBytes: network.stats.downBytes,
        cuts: network.stats.cuts,
      };
      await network.close();
      return result;
    }
  }
}

/** Photos as the app sends them now: resumable uploads that continue where a cut left them. */
const resumableTransport =
  (network: BadNetwork, cookie: string): Transport =>
  (item, { onProgress, signal, onUploadUrl }) => {
    if (item.kind !== 'photo') throw new Error('solo fotos');
    return sendResumablePhoto({
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
      headers: { cookie, ...appOrigin },
    });
  };

/** The app's own origin, which the server asks of every change (the proxy's address is not it). */
const appOrigin: { origin?: string } = {};

/** Photos as the app sent them before: the whole file in one multipart request, from zero on each try. */
const multipartTransport =
  (network: BadNetwork, cookie: string): Transport =>
  (item, { signal }) => {
    if (item.kind !== 'photo') throw new Error('solo fotos');
    const form = new FormData();
    form.append('file', new Blob([item.file.data ?? new ArrayBuffer(0)], { type: item.file.type }), item.file.name);
    return post(
      `${network.url}/api/validation/${item.slug}/records/${item.recordId}/photos/${item.photoKind}`,
      { headers: { cookie, ...appOrigin, [IDEMPOTENCY_KEY_HEADER]: item.key }, body: form },
      signal,
    );
  };

/** What the server stored for these records: items once, items twice, items missing. */
function stored(dataDir: string, recordIds: number[]) {
  const db = new Database(path.join(dataDir, 'comando.sqlite'), { readonly: true, fileMustExist: true });
  try {
    let once = 0;
    let twice = 0;
    for (const id of recordIds) {
      const target = `record:${id}`;
      const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;
      const votes = count("select count(*) as n from audit_log where action = 'record.vote' and target = ?", target);
      const uploads = count("select count(*) as n from audit_log where action = 'photo.upload' and target = ?", target);
      const rows = count('select count(*) as n from photos where record_id = ?', id);
      const slots = db
        .prepare('select gobernador_photo_id as g, an_photo_id as a, clez_photo_id as c from records where id = ?')
        .get(id) as { g: number | null; a: number | null; c: number | null };
      const filled = [slots.g, slots.a, slots.c].filter((s) => s !== null).length;
      once += Math.min(votes, 1) + filled;
      twice += Math.max(0, votes - 1) + Math.max(0, uploads - filled) + Math.max(0, rows - filled);
    }
    return { once, twice, lost: recordIds.length * 4 - once };
  } finally {
    db.close();
  }
}

/** In Chromium: the page's longest task while a 12-megapixel photo is prepared (CPU slowed `rate` times). */
async function longestTask(origin: string, rate: number): Promise<{ longestMs: number; prepareMs: number }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--disable-quic'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, baseURL: origin });
    // Long tasks of the page, and when the photo was picked (the input's change event): only the app's
    // own work counts, not Playwright's checks before it sets the file.
    await page.addInitScript(() => {
      const w = window as unknown as { __longTasks: number[][]; __pickedAt?: number };
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longTasks.push([e.startTime, e.duration]);
      }).observe({ type: 'longtask', buffered: true });
      document.addEventListener('change', () => (w.__pickedAt ??= performance.now()), true);
    });
    await page.goto('/login');
    await page.getByLabel('Correo electrónico').fill(EMAIL);
    await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(/\/validation\//);
    await page.goto(`/validation/${SLUGS.browser}`);
    const card = page.getByRole('article').nth(rate === 1 ? 0 : 1);
    await card.waitFor();
    const name = await card.getAttribute('aria-label');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await page.waitForTimeout(500);
    await page.getByLabel(`Subir foto Gobernador de ${name}`).setInputFiles(await phonePhoto(1));
    // Waited for from the page, checking twice a second: Playwright's own polling would add tasks.
    await page.waitForFunction(() => document.querySelector('[data-testid="envio-estado"]') !== null, undefined, {
      polling: 500,
      timeout: 120_000,
    });
    const { tasks, from, until } = await page.evaluate(() => {
      const w = window as unknown as { __longTasks: number[][]; __pickedAt: number };
      return { tasks: w.__longTasks, from: w.__pickedAt, until: performance.now() };
    });
    // Tasks running when the photo was picked or after (the change event's own task included).
    const during = tasks.filter(([start = 0, duration = 0]) => start + duration >= from && start <= until);
    return { longestMs: Math.max(0, ...during.map(([, d = 0]) => d)), prepareMs: until - from };
  } finally {
    await browser.close();
  }
}

export const suite: BenchSuite = {
  name: 'Campo',
  async seed(db) {
    await createUser(db, {
      email: EMAIL,
      role: 'staff',
      password: PASSWORD,
      departments: [SLUGS.resumable, SLUGS.multipart, SLUGS.browser],
    });
    ids = {
      resumable: (await seedBenchRecords(db, RECORDS, { departments: [SLUGS.resumable] })).ids[SLUGS.resumable] ?? [],
      multipart: (await seedBenchRecords(db, RECORDS, { departments: [SLUGS.multipart] })).ids[SLUGS.multipart] ?? [],
      browser: (await seedBenchRecords(db, 2, { departments: [SLUGS.browser] })).ids[SLUGS.browser] ?? [],
    };
  },
  cases: [],
  async extra(origin, _pid, dataDir) {
    appOrigin.origin = origin;
    const { originals, rightSized } = await photos();
    const perRecord = rightSized.reduce((sum, b) => sum + b.length, 0);
    const rightSizedTotal = perRecord * RECORDS;
    const link = `${NETWORK.upKbps} kbit/s subida, ${NETWORK.downKbps} kbit/s bajada, ${NETWORK.rttMs} ms, corte cada ${NETWORK.cutEveryMs / 1000} s`;
    console.log(
      `Campo: ${RECORDS} registros × (voto + 3 fotos de ${originals.map((o) => formatBytes(o.length)).join(', ')}; reducidas a ${rightSized.map((o) => formatBytes(o.length)).join(', ')}); ${link}`,
    );
    const rows: Record<string, unknown>[] = [];

    const now = await sendDepartment(
      origin,
      SLUGS.resumable,
      ids.resumable,
      rightSized,
      resumableTransport,
      NEW_LIMIT_MS,
      'reanudable',
    );
    const nowStored = stored(dataDir, ids.resumable);
    const ratio = now.upBytes / rightSizedTotal;
    rows.push({
      suite: 'Campo',
      caso: `Ahora: fotos reducidas, subida reanudable (tus); ${link}`,
      tiempo: now.done ? seconds(now.ms) : `no terminó en ${seconds(now.ms)}`,
      'en el servidor': `${nowStored.once} de ${RECORDS * 4}`,
      'dos veces': nowStored.twice,
      perdidos: nowStored.lost,
      'bytes subidos': `${formatBytes(now.upBytes)} (${fraction(ratio)} × ${formatBytes(rightSizedTotal)} de fotos reducidas)`,
      cortes: now.cuts,
      objetivo: `todo llega, nada dos veces, ≤ 1,2 × bytes de las fotos reducidas`,
      ok: now.done && nowStored.lost === 0 && nowStored.twice === 0 && ratio <= 1.2 ? 'sí' : 'NO',
    });

    if (OLD_CAP_MS > 0) {
      const before = await sendDepartment(
        origin,
        SLUGS.multipart,
        ids.multipart,
        originals,
        multipartTransport,
        OLD_CAP_MS,
        'multipart',
      );
      const beforeStored = stored(dataDir, ids.multipart);
      const perPhotoS = (3.5 * 8 * 1000) / NETWORK.upKbps;
      rows.push({
        suite: 'Campo',
        caso: 'Antes: fotos originales en multipart, desde cero tras cada corte',
        tiempo: before.done
          ? seconds(before.ms)
          : `no terminó: se detuvo a los ${seconds(before.ms)} (una foto de 3,5 MB necesita ~${Math.round(perPhotoS)} s seguidos; la conexión se corta cada ${NETWORK.cutEveryMs / 1000} s)`,
        'en el servidor': `${beforeStored.once} de ${RECORDS * 4}`,
        'dos veces': beforeStored.twice,
        perdidos: before.done ? beforeStored.lost : `${beforeStored.lost} sin llegar`,
        'bytes subidos': formatBytes(before.upBytes),
        cortes: before.cuts,
        objetivo: 'referencia (puede no terminar nunca)',
        ok: '—',
      });
    }

    if (!fs.existsSync(path.resolve('dist', 'index.html'))) {
      rows.push({
        suite: 'Campo',
        caso: 'Chromium: preparar una foto de 12 MP',
        tiempo: 'sin medir: falta `npm run build`',
      });
    } else {
      for (const rate of [1, 4]) {
        const { longestMs, prepareMs } = await longestTask(origin, rate);
        rows.push({
          suite: 'Campo',
          caso: `Chromium: tarea más larga de la página al preparar una foto de 12 MP (CPU ${rate === 1 ? 'sin frenar' : `${rate}× más lenta`})`,
          tiempo: `${Math.round(longestMs)} ms (preparada en ${(prepareMs / 1000).toFixed(1).replace('.', ',')} s)`,
          objetivo: '≤ 200 ms',
          ok: longestMs <= 200 ? 'sí' : 'NO',
        });
      }
    }
    return rows;
  },
};
