import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { expectNoSeriousA11yViolations } from './support/axe';
import { attemptIndex } from './support/attempt';
import { signIn } from './support/login';
import { launchPhone, PHONE } from './support/phone';
import { OUTBOX_ACCOUNTS, OUTBOX_PASSWORD } from './support/seed-outbox';
import { E2E_SERVERS, e2eDataDir } from './support/servers';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
test.use(PHONE);

const card = (page: Page, name: string) => page.getByRole('article', { name });
const states = (page: Page, name: string) => card(page, name).getByTestId('envio-estado');

/** What the server stored for a record, read from the main instance's database. */
function stored(nombre: string) {
  const db = new Database(path.join(e2eDataDir('main'), 'comando.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const record = db.prepare('select id from records where nombre = ?').get(nombre) as { id: number };
    const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;
    return {
      votes: count(
        "select count(*) as n from audit_log where action = 'record.vote' and target = ?",
        `record:${record.id}`,
      ),
      ballotRows: count('select count(*) as n from record_votes where record_id = ?', record.id),
      photos: count('select count(*) as n from photos where record_id = ?', record.id),
      photoUploads: count(
        "select count(*) as n from audit_log where action = 'photo.upload' and target = ?",
        `record:${record.id}`,
      ),
    };
  } finally {
    db.close();
  }
}

/**
 * Records of the seeded department for this run: each repetition (--repeat-each) and each test takes
 * its own, so runs in parallel workers against one server never touch the same record.
 */
function recordsFor(slug: string, first: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `Votante ${String(first + i).padStart(2, '0')} de ${slug}`);
}

/** Shows one record's card (the list is long and windowed): searches it by name. */
async function find(page: Page, name: string) {
  await page.getByLabel('Buscar').fill(name);
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(card(page, name)).toBeVisible();
}

async function vote(page: Page, name: string, code: string) {
  await find(page, name);
  await page.getByRole('button', { name: `Votar: ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Votar' });
  await dialog.getByRole('checkbox', { name: new RegExp(code) }).check();
  await dialog.getByRole('button', { name: 'Votar' }).click();
  await expect(dialog).toBeHidden();
}

test('votes and photos taken offline survive a closed browser, and arrive exactly once when back online', async () => {
  const testInfo = test.info();
  // Twelve items, nine of them photos converted by the server, and two browser starts: minutes on a busy machine.
  test.setTimeout(240_000);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-telefono-'));
  const { email, slug } = OUTBOX_ACCOUNTS.offline;
  let context = await launchPhone(profile);
  try {
    let page = context.pages()[0] ?? (await context.newPage());
    await signIn(page, email, OUTBOX_PASSWORD);
    await expect(page).toHaveURL(new RegExp(`/validation/${slug}$`));
    // After one visit the app shell is on the phone: the service worker controls the page.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
    const names = recordsFor(slug, 1 + 3 * attemptIndex(testInfo), 3);

    await context.setOffline(true);
    for (const [i, name] of names.entries()) {
      await vote(page, name, ['FA', 'LC', 'NR'][i] as string);
      for (const [label, file] of [
        ['Gobernador', 'ballot.jpg'],
        ['AN', 'ballot.heic'],
        ['CLEZ', 'rotated-exif6.jpg'],
      ] as const) {
        await page.getByLabel(`Subir foto ${label} de ${name}`).setInputFiles(path.join(FIXTURES, file));
        await expect(page.getByTestId('loading-cover')).toBeHidden();
      }
      await expect(states(page, name)).toHaveText(Array(4).fill('Guardado en el teléfono'));
    }
    await expect(page.getByText('Sin conexión', { exact: true })).toBeVisible();

    // The queue screen lists the twelve, offline too.
    await page.getByRole('link', { name: '12 envíos pendientes' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Envíos' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Por enviar (12)' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The browser is closed (the phone put away), then opened again, still without a connection.
    await context.close();
    context = await launchPhone(profile, { offline: true });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`/validation/${slug}`);
    await expect(page.getByRole('heading', { level: 1, name: slug.replace(/-/g, ' ').toUpperCase() })).toBeVisible();
    await expect(page.getByText('Sin conexión', { exact: true })).toBeVisible();
    for (const name of names) {
      await find(page, name);
      await expect(states(page, name)).toHaveText(Array(4).fill('Guardado en el teléfono'));
      expect(stored(name)).toEqual({ votes: 0, ballotRows: 0, photos: 0, photoUploads: 0 });
    }

    // Back online: everything goes, once, and each card says so (validated records included).
    await context.setOffline(false);
    await page.getByRole('switch', { name: 'Mostrar validados' }).check();
    for (const name of names) {
      await find(page, name);
      await expect(states(page, name)).toHaveText(Array(4).fill('Enviado'), { timeout: 120_000 });
    }
    await expect(page.getByText('Sin conexión', { exact: true })).toBeHidden();
    for (const name of names) {
      expect(stored(name)).toEqual({ votes: 1, ballotRows: 1, photos: 3, photoUploads: 3 });
    }
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

/**
 * A local stand-in for a bad network: forwards every request to the app, but for the first vote it
 * waits for the app's answer (so the vote is saved) and then closes the connection without answering.
 */
async function startLosingProxy(target: string) {
  const upstream = new URL(target);
  const votes: (string | undefined)[] = [];
  let dropped = false;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const isVote = req.method === 'POST' && /\/vote$/.test(req.url ?? '');
      if (isVote) votes.push(req.headers['idempotency-key'] as string | undefined);
      const drop = isVote && !dropped;
      // The app only takes changes from its own origin: the stand-in speaks as the browser would to it.
      const headers = {
        ...req.headers,
        host: upstream.host,
        ...(req.headers.origin ? { origin: upstream.origin } : {}),
      };
      const forward = http.request(
        { hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
        (answer) => {
          if (drop) {
            dropped = true;
            answer.resume();
            answer.on('end', () => req.socket.destroy());
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    votes,
    wasDropped: () => dropped,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('a vote whose answer was lost after the server saved it ends green, stored once', async ({ page }, testInfo) => {
  const proxy = await startLosingProxy(E2E_SERVERS.main.url);
  try {
    await page.goto(`${proxy.url}/login`);
    await signIn(page, OUTBOX_ACCOUNTS.retries.email, OUTBOX_PASSWORD);
    const [name] = recordsFor(OUTBOX_ACCOUNTS.retries.slug, 1 + 2 * attemptIndex(testInfo), 1) as [string];
    await vote(page, name, 'LC');
    await expect(states(page, name)).toHaveText(['Enviado'], { timeout: 30_000 });
    expect(proxy.wasDropped()).toBe(true);
    // The lost try and the retry carried the same key; the server kept one vote.
    expect(proxy.votes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(proxy.votes).size).toBe(1);
    expect(stored(name)).toMatchObject({ votes: 1, ballotRows: 1 });
    await expect(card(page, name).getByText('Rechazado')).toHaveCount(0);
  } finally {
    await proxy.close();
  }
});

test('a double tap on ‘Votar’ sends one request and stores one vote', async ({ page }, testInfo) => {
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/vote')) requests.push(request.url());
  });
  await signIn(page, OUTBOX_ACCOUNTS.retries.email, OUTBOX_PASSWORD);
  const [name] = recordsFor(OUTBOX_ACCOUNTS.retries.slug, 2 + 2 * attemptIndex(testInfo), 1) as [string];
  await find(page, name);
  await page.getByRole('button', { name: `Votar: ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Votar' });
  await dialog.getByRole('checkbox', { name: /NR/ }).check();
  await dialog.getByRole('button', { name: 'Votar' }).dblclick();
  await expect(states(page, name)).toHaveText(['Enviado']);
  expect(requests).toHaveLength(1);
  expect(stored(name)).toMatchObject({ votes: 1, ballotRows: 1 });
});
