// Comando as it runs in production, through Debian's nginx with docs/deploy/nginx-comando.conf (HTTPS)
// in front of two instances on one PostgreSQL (support/behind-nginx.ts). Run by the `proxy` project only
// (playwright.config.ts); `npm test` leaves it out, and says so, where nginx is not installed.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { type Browser, expect, type Page, request, test } from '@playwright/test';
import pg from 'pg';
import sharp from 'sharp';
import { RESULTS_HEARTBEAT_MS } from '#shared/features/results/results';
import { type BehindNginx, PROXY_ACCOUNTS, PROXY_METRICS_TOKEN, startBehindNginx } from './support/behind-nginx';
import { signIn } from './support/login';

const { password: PASSWORD, admin: ADMIN, validator: VALIDATOR, slug: SLUG } = PROXY_ACCOUNTS;

test.describe.configure({ mode: 'serial' });

let proxy: BehindNginx;
let origin: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  proxy = await startBehindNginx({ unvoted: 10 });
  origin = proxy.origin;
});

test.afterAll(async () => {
  await proxy?.stop();
});

async function browserOn(browser: Browser, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ baseURL: origin, ignoreHTTPSErrors: true, locale: 'es-VE', viewport });
  return { context, page: await context.newPage() };
}

async function lastLoginAddress(email: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: proxy.databaseUrl });
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
    const streams = async () => Promise.all(proxy.instances.map((i) => proxy.metric(i, /^comando_live_streams /)));
    // A stream that reconnected may still be closing on the other instance: wait until one holds them all.
    // The landing page's stream, left when the projector opened, may be counted there until its next
    // heartbeat finds its connection gone (one run of the whole suite waited past 10 s): wait two.
    let open: number[] = [];
    await expect
      .poll(
        async () => {
          open = await streams();
          return open.filter((n) => n > 0).length;
        },
        { timeout: 2 * RESULTS_HEARTBEAT_MS },
      )
      .toBe(1);
    const streaming = open.findIndex((n) => n > 0);
    const other = proxy.instances[1 - streaming]!;
    const votesOn = (instance: typeof other) => proxy.metric(instance, /^comando_votes_stored_total /);

    // least_conn sends a new request to the instance without the open stream; each try is another record.
    let votes = 0;
    while ((await votesOn(other)) === 0 && votes < 3) {
      votes += 1;
      await vote(validator.page, votes);
      const sent = Date.now();
      await expect(fa).toHaveText(votes === 1 ? '1 voto' : `${votes} votos`);
      test.info().annotations.push({ type: 'voto → proyector', description: `${Date.now() - sent} ms` });
    }
    expect(await votesOn(other)).toBe(1);
    expect(await votesOn(proxy.instances[streaming]!)).toBe(votes - 1);
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
  const client = new pg.Client({ connectionString: proxy.databaseUrl });
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
    const onDisk = path.join(proxy.dataDir, 'uploads', 'tus', id);

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
    const serverOffset = async () => {
      let offset = 0;
      await expect
        .poll(async () => {
          const head = await api.head(location, { headers: { 'tus-resumable': '1.0.0' } });
          offset = Number(head.headers()['upload-offset'] ?? -1);
          return head.status();
        })
        .toBe(200);
      return offset;
    };
    let offset = await serverOffset();
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(cutAt);

    // The rest, from what the app has, as tus-js-client sends it. The cut request's last bytes may still
    // be reaching the app when the first HEAD answers: a 409 then says the offset moved, and the client
    // asks again and continues from there (at most a few times).
    const sendRest = (from: number) =>
      api.patch(location, {
        headers: {
          'tus-resumable': '1.0.0',
          'upload-offset': String(from),
          'content-type': 'application/offset+octet-stream',
        },
        data: photo.subarray(from),
      });
    let rest = await sendRest(offset);
    for (let attempt = 1; attempt < 5 && rest.status() === 409; attempt++) {
      offset = await serverOffset();
      expect(offset).toBeLessThanOrEqual(cutAt);
      rest = await sendRest(offset);
    }
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

/** A GET sent with its path exactly as written (fetch and URL would tidy it): status and body. */
function getRaw(
  base: string,
  rawPath: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      { host: url.hostname, port: url.port, path: rawPath, method: 'GET', headers, rejectUnauthorized: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('through nginx: /metrics is refused in every spelling, even with the token; each instance gives it at /metrics only', async () => {
  const authorization = `Bearer ${PROXY_METRICS_TOKEN}`;
  const spellings = [
    '/metrics',
    '/metrics/',
    '/metrics?x=1',
    '/metrics/?x=1',
    '//metrics',
    '///metrics/',
    '/METRICS',
    '/Metrics/',
    '/%6Detrics',
    '/%6detrics/',
    '/metrics%2F',
    '/./metrics',
    '/api/../metrics',
    '/metrics/.',
    '/metrics;x',
    '/metrics.',
  ];
  for (const spelling of spellings) {
    const answer = await getRaw(origin, spelling, { authorization });
    expect(answer.status, spelling).toBe(404);
    // nginx's own page: the request never reached an instance.
    expect(answer.body, spelling).toContain('<center>nginx');
    expect(answer.body, spelling).not.toContain('comando_');
  }
  // Prometheus, on an instance's own address, still reads them; the instance itself knows no other spelling.
  const instance = `http://127.0.0.1:${proxy.instances[0]!.port}`;
  const direct = await getRaw(instance, '/metrics', { authorization });
  expect(direct.status).toBe(200);
  expect(direct.body).toContain('comando_votes_stored_total');
  for (const spelling of ['/metrics/', '/%6Detrics']) {
    expect((await getRaw(instance, spelling, { authorization })).status, spelling).toBe(404);
  }
});
