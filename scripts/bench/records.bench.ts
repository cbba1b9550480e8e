import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { v7 as itemKey } from 'uuid';
import { createUser } from '#server/testing/auth-helpers';
import { seedBenchRecords } from './data/records-seed';
import { memoryMb } from './process-memory';
import type { BenchSuite } from './types';

const EMAIL = 'bench.validador@comando.example';
const PASSWORD = 'clave-de-rendimiento-123';
const SLUG = 'bolivar';
// Enough for the two vote cases to vote records of their own (a fifth to three fifths, and the rest).
const RECORDS = 100_000;
let ids: number[] = [];

async function signIn(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${res.status}: ${await res.text()}`);
  return res.headers.get('set-cookie')?.split(';')[0] ?? '';
}

/** Test images, made once and kept in the temp folder (the HEIC encoder takes ~20 s). */
async function images(): Promise<{ jpeg: Buffer; heic: Buffer }> {
  const dir = path.join(os.tmpdir(), 'comando-bench-images');
  fs.mkdirSync(dir, { recursive: true });
  const jpegPath = path.join(dir, 'foto-4mb.jpg');
  const heicPath = path.join(dir, 'foto-12mp.heic');
  if (!fs.existsSync(jpegPath) || !fs.existsSync(heicPath)) {
    // Noise compresses badly, like a real photo of paper: 12 MP for the HEIC, ~4 MB for the JPEG.
    const noisy = (width: number, height: number) => {
      const noise = Buffer.alloc(width * height * 3);
      for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) % 251;
      return sharp(noise, { raw: { width, height, channels: 3 } });
    };
    await noisy(2800, 2100).jpeg({ quality: 90 }).toFile(jpegPath);
    const png = path.join(dir, 'foto-12mp.png');
    await noisy(4000, 3000).png({ compressionLevel: 1 }).toFile(png);
    execFileSync('heif-enc', ['-q', '60', '-o', heicPath, png]);
  }
  return { jpeg: fs.readFileSync(jpegPath), heic: fs.readFileSync(heicPath) };
}

function multipart(file: Buffer, name: string, type: string) {
  const boundary = `----comando${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  return {
    body: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

async function upload(origin: string, cookie: string, id: number, file: Buffer, name: string, type: string) {
  const { body, type: contentType } = multipart(file, name, type);
  const started = performance.now();
  const res = await fetch(`${origin}/api/validation/${SLUG}/records/${id}/photos/gobernador`, {
    method: 'POST',
    headers: { cookie, origin, 'content-type': contentType },
    body,
  });
  if (!res.ok) throw new Error(`subida ${res.status}: ${await res.text()}`);
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export const suite: BenchSuite = {
  name: 'Validación',
  async seed(db) {
    await createUser(db, { email: EMAIL, role: 'staff', password: PASSWORD, departments: [SLUG] });
    ids = (await seedBenchRecords(db, RECORDS, { departments: [SLUG] })).ids[SLUG] ?? [];
  },
  cases: [
    {
      name: `POST voto, registros distintos (${RECORDS.toLocaleString('es')} registros)`,
      connections: 50,
      targetP99: 25,
      targetRps: 2000,
      requests: async (origin) => {
        const cookie = await signIn(origin);
        // Votes use records from the fifth on; uploads below use the first ones.
        let next = Math.floor(ids.length / 5);
        return [
          {
            method: 'POST',
            path: '/',
            headers: { cookie, origin, 'content-type': 'application/json' },
            body: JSON.stringify({ candidates: ['FA', 'NR'] }),
            setupRequest: (req) => ({
              ...req,
              path: `/api/validation/${SLUG}/records/${ids[next++ % ids.length]}/vote`,
            }),
          },
        ];
      },
    },
    {
      // As the phone's outbox sends a vote: each with its own Idempotency-Key (decision 023), a UUID version 7
      // made when the vote was taken (decision 090).
      name: 'POST voto con Idempotency-Key, como lo envía el teléfono',
      connections: 50,
      targetP99: 25,
      targetRps: 2000,
      requests: async (origin) => {
        const cookie = await signIn(origin);
        // Records of their own: the case above votes from the fifth to at most the three fifths.
        let next = Math.floor((ids.length * 3) / 5);
        return [
          {
            method: 'POST',
            path: '/',
            headers: { cookie, origin, 'content-type': 'application/json' },
            body: JSON.stringify({ candidates: ['FA', 'NR'] }),
            setupRequest: (req) => ({
              ...req,
              headers: { ...req.headers, 'idempotency-key': itemKey() },
              path: `/api/validation/${SLUG}/records/${ids[next++ % ids.length]}/vote`,
            }),
          },
        ];
      },
    },
    {
      name: 'GET página de 100 registros',
      connections: 50,
      targetP99: 15,
      requests: async (origin) => {
        // Validators scrolling the list: each request asks for one of the first 50 pages (the cursor
        // of a page is the last id of the page before it).
        const cursors = Array.from({ length: 50 }, (_, page) => (page === 0 ? '' : `?after=${ids[page * 100 - 1]}`));
        let next = 0;
        return [
          {
            method: 'GET',
            path: `/api/validation/${SLUG}/records`,
            headers: { cookie: await signIn(origin) },
            setupRequest: (req) => ({
              ...req,
              path: `/api/validation/${SLUG}/records${cursors[next++ % cursors.length]}`,
            }),
          },
        ];
      },
    },
  ],
  async extra(origin, serverPid) {
    const cookie = await signIn(origin);
    const { jpeg, heic } = await images();
    let id = 0;
    const jpegTimes: number[] = [];
    for (let i = 0; i < 3; i++)
      jpegTimes.push(await upload(origin, cookie, ids[id++]!, jpeg, 'foto.jpg', 'image/jpeg'));
    const heicTimes: number[] = [];
    for (let i = 0; i < 2; i++)
      heicTimes.push(await upload(origin, cookie, ids[id++]!, heic, 'foto.heic', 'image/heic'));
    let peak = { server: 0, tree: 0 };
    const sampler = setInterval(() => {
      const m = memoryMb(serverPid);
      peak = { server: Math.max(peak.server, m.server), tree: Math.max(peak.tree, m.tree) };
    }, 100);
    await Promise.all(
      Array.from({ length: 8 }, () => upload(origin, cookie, ids[id++]!, heic, 'foto.heic', 'image/heic')),
    );
    clearInterval(sampler);
    const ok = (v: boolean) => (v ? 'sí' : 'NO');
    return [
      {
        suite: 'Validación',
        caso: `subida JPEG ${(jpeg.length / 1e6).toFixed(1)} MB (mediana de 3)`,
        'p50 ms': Math.round(median(jpegTimes)),
        objetivo: '< 500 ms',
        ok: ok(median(jpegTimes) < 500),
      },
      {
        suite: 'Validación',
        caso: 'subida HEIC 12 MP (mediana de 2)',
        'p50 ms': Math.round(median(heicTimes)),
        objetivo: '< 3000 ms',
        ok: ok(median(heicTimes) < 3000),
      },
      {
        suite: 'Validación',
        caso: '8 HEIC a la vez: memoria máx. del proceso servidor / del árbol',
        'p50 ms': `${Math.round(peak.server)} MB / ${Math.round(peak.tree)} MB`,
        objetivo: '< 400 MB',
        ok: ok(peak.server < 400),
      },
    ];
  },
};
