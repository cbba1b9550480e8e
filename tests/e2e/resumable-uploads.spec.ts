import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { phonePhoto } from '../fixtures/phone-photos';
import { attemptIndex } from './support/attempt';
import { signIn } from './support/login';
import { launchPhone } from './support/phone';
import { OUTBOX_ACCOUNTS, OUTBOX_PASSWORD } from './support/seed-outbox';
import { E2E_SERVERS, e2eDataDir } from './support/servers';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

const card = (page: Page, name: string) => page.getByRole('article', { name });

/** The photos the server stored for a record, read from the main instance's database. */
function storedPhotos(nombre: string) {
  const db = new Database(path.join(e2eDataDir('main'), 'comando.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        'select p.width, p.height, p.size_bytes as size, p.content_type as type from photos p join records r on r.id = p.record_id where r.nombre = ?',
      )
      .all(nombre) as { width: number; height: number; size: number; type: string }[];
  } finally {
    db.close();
  }
}

interface Patch {
  offset: number;
  forwarded: number;
  cut: boolean;
}

/**
 * A bad network between the phone and the app: forwards everything, but the first PATCH of a photo
 * upload is cut after `cutAfter` bytes (both connections closed mid-body, as a dropped 2G link does:
 * the app gets those bytes, then the end of a body shorter than announced).
 * With `downAfterCut`, every photo upload request after the cut is dropped too, until `bringUp()`.
 */
async function startCuttingProxy(target: string, cutAfter: number, { downAfterCut = false } = {}) {
  const upstream = new URL(target);
  const patches: Patch[] = [];
  let cutOne = false;
  let down = false;
  const server = http.createServer((req, res) => {
    if (down && req.url?.startsWith('/api/photo-uploads')) {
      req.socket.destroy();
      return;
    }
    // The app only takes changes from its own origin: the stand-in speaks as the browser would to it.
    const headers = { ...req.headers, host: upstream.host, ...(req.headers.origin ? { origin: upstream.origin } : {}) };
    const forward = http.request(
      { hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    if (!(req.method === 'PATCH' && req.url?.startsWith('/api/photo-uploads/'))) {
      req.pipe(forward);
      return;
    }
    const patch: Patch = { offset: Number(req.headers['upload-offset']), forwarded: 0, cut: false };
    patches.push(patch);
    const cutting = !cutOne;
    cutOne = true;
    req.on('data', (chunk: Buffer) => {
      if (patch.cut) return;
      if (cutting && patch.forwarded + chunk.length >= cutAfter) {
        const part = chunk.subarray(0, cutAfter - patch.forwarded);
        patch.forwarded += part.length;
        patch.cut = true;
        down = downAfterCut;
        // The app's side ends after the bytes that got through (a reset could also throw away what
        // still sat unread in the app's socket, and the test would not know how much the app kept);
        // the phone's side is dropped.
        forward.end(part);
        req.socket.destroy();
        return;
      }
      patch.forwarded += chunk.length;
      forward.write(chunk);
    });
    req.on('end', () => {
      if (!patch.cut) forward.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    patches,
    bringUp: () => {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test('a photo cut on the way by the network continues where it stopped, and arrives once, right-sized', async ({
  page,
}) => {
  // A 12-megapixel photo prepared in the browser, then sent through a cut: well under a minute here.
  test.setTimeout(120_000);
  const photo = await phonePhoto(1);
  const proxy = await startCuttingProxy(E2E_SERVERS.main.url, 150_000);
  try {
    const { email, slug } = OUTBOX_ACCOUNTS.resumable;
    await page.goto(`${proxy.url}/login`);
    await signIn(page, email, OUTBOX_PASSWORD);
    await expect(page).toHaveURL(new RegExp(`/validation/${slug}$`));
    const name = `Votante ${String(1 + attemptIndex()).padStart(2, '0')} de ${slug}`;
    await page.getByLabel('Buscar').fill(name);
    await expect(page.getByRole('article')).toHaveCount(1);

    await page.getByLabel(`Subir foto Gobernador de ${name}`).setInputFiles(photo);
    await expect(page.getByTestId('loading-cover')).toBeHidden({ timeout: 30_000 });
    // Made on the phone: about 3.5 MB became a JPEG of a few hundred kB.
    const saved = card(page, name).getByTestId('foto-reducida');
    await expect(saved.locator('[aria-hidden="true"]')).toHaveText(/^3,6 MB -> \d{3} kB$/);
    await expect(saved.locator('.sr-only')).toHaveText(/^Foto reducida de 3,6 MB a \d{3} kB$/);
    await expect(card(page, name).getByTestId('envio-estado')).toHaveText(['Enviado'], { timeout: 60_000 });

    // The first try was cut; a later one continued from what the server had kept, not from zero.
    const [first, ...rest] = proxy.patches;
    expect(first?.cut).toBe(true);
    const resumed = rest.find((p) => p.offset > 0);
    expect(resumed, JSON.stringify(proxy.patches)).toBeDefined();
    expect(resumed?.offset).toBeLessThanOrEqual(first?.forwarded ?? 0);
    const stored = storedPhotos(name);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ width: 2560, height: 1920, type: 'image/jpeg' });
    // The try that continued sent only the rest of the photo. (Chromium may also repeat the cut request
    // from the start on a new connection; the server refuses that at once with 409, having the bytes.)
    expect(resumed?.forwarded).toBe((stored[0]?.size ?? 0) - (resumed?.offset ?? 0));
  } finally {
    await proxy.close();
  }
});

/** The upload addresses the phone keeps for its waiting photos (IndexedDB, read in the page). */
function keptUploadUrls(page: Page): Promise<(string | null)[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('comando-validacion');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      const items = await new Promise<{ kind: string; uploadUrl?: string | null }[]>((resolve, reject) => {
        const all = db.transaction('outbox').objectStore('outbox').getAll();
        all.onsuccess = () => resolve(all.result);
        all.onerror = () => reject(all.error);
      });
      return items.filter((i) => i.kind === 'photo').map((i) => i.uploadUrl ?? null);
    } finally {
      db.close();
    }
  });
}

test('a photo cut on the way continues where it stopped after the phone restarts', async () => {
  // Two browser starts and a 12-megapixel photo prepared in the page.
  test.setTimeout(120_000);
  const photo = await phonePhoto(3);
  // Cut at about three quarters of the right-sized photo (a few hundred kB), then no upload gets through.
  const proxy = await startCuttingProxy(E2E_SERVERS.main.url, 450_000, { downAfterCut: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-telefono-'));
  const { email, slug } = OUTBOX_ACCOUNTS.resumable;
  const name = `Votante ${String(20 + attemptIndex()).padStart(2, '0')} de ${slug}`;
  let context = await launchPhone(profile, { baseURL: proxy.url });
  try {
    let page = context.pages()[0] ?? (await context.newPage());
    await signIn(page, email, OUTBOX_PASSWORD);
    await expect(page).toHaveURL(new RegExp(`/validation/${slug}$`));
    await page.getByLabel('Buscar').fill(name);
    await expect(page.getByRole('article')).toHaveCount(1);
    await page.getByLabel(`Subir foto AN de ${name}`).setInputFiles(photo);

    // The upload was cut part-way, and the phone kept where the upload lives on the server.
    await expect.poll(() => proxy.patches[0]?.cut ?? false, { timeout: 30_000 }).toBe(true);
    await expect.poll(() => keptUploadUrls(page)).toEqual([expect.stringContaining('/api/photo-uploads/')]);
    const cut = proxy.patches[0] as Patch;

    // The phone is switched off; when it is on again, so is the network.
    await context.close();
    proxy.bringUp();
    context = await launchPhone(profile, { baseURL: proxy.url });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`/validation/${slug}`);
    await page.getByLabel('Buscar').fill(name);
    await expect(page.getByRole('article')).toHaveCount(1);
    await expect(card(page, name).getByTestId('envio-estado')).toHaveText(['Enviado'], { timeout: 60_000 });

    const stored = storedPhotos(name);
    expect(stored).toHaveLength(1);
    const size = stored[0]?.size ?? 0;
    // After the restart the upload went on from what the server had kept (most of the photo), not from zero,
    // and sent only the rest.
    const resumed = proxy.patches.slice(1).find((p) => p.offset > 0);
    expect(resumed, JSON.stringify(proxy.patches)).toBeDefined();
    expect(resumed?.offset).toBeLessThanOrEqual(cut.forwarded);
    expect(resumed?.offset).toBeGreaterThan(size / 2);
    expect(resumed?.forwarded).toBe(size - (resumed?.offset ?? 0));
    expect(proxy.patches.slice(1).filter((p) => p.offset === 0)).toEqual([]);
  } finally {
    await context.close();
    await proxy.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test('a sideways phone photo is sent upright, right-sized, with its capture time and nothing else of its EXIF', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const photo = await phonePhoto(2, { sideways: true });
  const { email, slug } = OUTBOX_ACCOUNTS.resumable;
  await signIn(page, email, OUTBOX_PASSWORD);
  const name = `Votante ${String(40 + attemptIndex()).padStart(2, '0')} de ${slug}`;
  await page.getByLabel('Buscar').fill(name);
  await expect(page.getByRole('article')).toHaveCount(1);
  await page.getByLabel(`Subir foto CLEZ de ${name}`).setInputFiles(photo);
  await expect(card(page, name).getByTestId('envio-estado')).toHaveText(['Enviado'], { timeout: 60_000 });

  // Stored as the phone sent it: 4032 × 3024 sideways became 1920 × 2560, upright.
  const [stored] = storedPhotos(name);
  expect(stored).toMatchObject({ width: 1920, height: 2560, type: 'image/jpeg' });
  const href = await card(page, name)
    .getByRole('link', { name: `Ver foto CLEZ de ${name}` })
    .getAttribute('href');
  const original = await page.request.get(`${href}?variant=original`);
  const meta = await sharp(await original.body()).metadata();
  expect([meta.width, meta.height, meta.orientation ?? 1]).toEqual([1920, 2560, 1]);
  const exif = Buffer.from(meta.exif ?? []).toString('latin1');
  expect(exif).toContain('2026:12:06 09:12:00');
  // The camera's make and model stayed on the phone.
  expect(exif).not.toContain('Telefono de prueba');
});

/** One upload as the phone announced it, and what became of its bytes. */
interface Announced {
  sha256: string | undefined;
}

/**
 * A network that damages one photo: forwards everything, but flips the byte at `flipAt` of the first
 * PATCH of a photo upload (the length stays as announced, so only the bytes' hash can tell).
 */
async function startFlippingProxy(target: string, flipAt: number) {
  const upstream = new URL(target);
  const announced: Announced[] = [];
  const answers: { status: number; body: string }[] = [];
  let flipped = false;
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, host: upstream.host, ...(req.headers.origin ? { origin: upstream.origin } : {}) };
    const isPatch = req.method === 'PATCH' && req.url?.startsWith('/api/photo-uploads/');
    if (req.method === 'POST' && req.url === '/api/photo-uploads') {
      const meta = Object.fromEntries(
        String(req.headers['upload-metadata'] ?? '')
          .split(',')
          .map((pair) => pair.trim().split(' '))
          .map(([k, v]) => [k, Buffer.from(v ?? '', 'base64').toString()]),
      );
      announced.push({ sha256: meta.sha256 });
    }
    const forward = http.request(
      { hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (!isPatch) {
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          answers.push({ status: answer.statusCode ?? 0, body: body.toString() });
          res.end(body);
        });
      },
    );
    forward.on('error', () => res.destroy());
    if (!isPatch || flipped) {
      req.pipe(forward);
      return;
    }
    flipped = true;
    let seen = 0;
    req.on('data', (chunk: Buffer) => {
      if (seen <= flipAt && flipAt < seen + chunk.length) {
        const copy = Buffer.from(chunk);
        copy[flipAt - seen] = (copy[flipAt - seen] ?? 0) ^ 0xff;
        forward.write(copy);
      } else {
        forward.write(chunk);
      }
      seen += chunk.length;
    });
    req.on('end', () => forward.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    announced,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The SHA-256 of a record's stored photo and of its `photo.upload` audit row, from the main database. */
function storedHashes(nombre: string) {
  const db = new Database(path.join(e2eDataDir('main'), 'comando.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        `select p.sha256 as photo, a.details as details from photos p join records r on r.id = p.record_id
         join audit_log a on a.action = 'photo.upload' and a.target = 'record:' || r.id where r.nombre = ?`,
      )
      .all(nombre) as { photo: string; details: string }[];
    return rows.map((row) => ({ photo: row.photo, audited: (JSON.parse(row.details) as { sha256?: string }).sha256 }));
  } finally {
    db.close();
  }
}

// A byte flipped in the middle, or the very first one (then the bytes do not even look like a JPEG): either
// way the hash decides, and the answer is 'dañada', so the phone sends its copy again (decision 088).
for (const { where, flipAt, first } of [
  { where: 'in its middle', flipAt: 100_000, first: 50 },
  { where: 'in its first byte', flipAt: 0, first: 30 },
]) {
  test(`a photo damaged on the way ${where} is refused by its hash and sent again by the phone, which stores it`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const photo = await phonePhoto(4);
    const proxy = await startFlippingProxy(E2E_SERVERS.main.url, flipAt);
    try {
      const { email, slug } = OUTBOX_ACCOUNTS.resumable;
      await page.goto(`${proxy.url}/login`);
      await signIn(page, email, OUTBOX_PASSWORD);
      await expect(page).toHaveURL(new RegExp(`/validation/${slug}$`));
      const name = `Votante ${String(first + attemptIndex()).padStart(2, '0')} de ${slug}`;
      await page.getByLabel('Buscar').fill(name);
      await expect(page.getByRole('article')).toHaveCount(1);

      await page.getByLabel(`Subir foto Gobernador de ${name}`).setInputFiles(photo);
      // Nobody is asked anything: the card ends 'Enviado'.
      await expect(card(page, name).getByTestId('envio-estado')).toHaveText(['Enviado'], { timeout: 60_000 });

      // The first upload arrived with a byte changed and was refused for it; a fresh upload of the phone's
      // copy, with the same hash, was stored.
      expect(proxy.answers[0]).toMatchObject({ status: 422 });
      expect(JSON.parse(proxy.answers[0]?.body ?? '{}')).toMatchObject({
        message: 'La foto llegó dañada; se enviará de nuevo',
        code: 'photo-arrived-damaged',
      });
      expect(proxy.answers.at(-1)?.status).toBe(201);
      expect(proxy.announced).toHaveLength(2);
      const declared = proxy.announced[0]?.sha256;
      expect(declared).toMatch(/^[0-9a-f]{64}$/);
      expect(proxy.announced[1]?.sha256).toBe(declared);
      // One photo, its hash the phone's, in its row and in its audit row.
      expect(storedHashes(name)).toEqual([{ photo: declared, audited: declared }]);
    } finally {
      await proxy.close();
    }
  });
}
