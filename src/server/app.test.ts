import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDemoData } from '#server/integrations/demo/demo';
import { migrateToLatest } from '#server/platform/db/database';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { createUser, loginAs } from '#server/testing/auth-helpers';
import { createTestApp, createTestDb, type TestApp, testConfig } from '#server/testing/test-app';
import { buildApp } from './app';

const execFileAsync = promisify(execFile);

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('the API shell', () => {
  it('answers health and readiness', async () => {
    t = await createTestApp();
    expect((await t.app.inject({ url: '/api/health' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().database).toBe(t.db.dialect);
  });

  it('says 503 on /api/ready when the database is gone', async () => {
    t = await createTestApp();
    const ping = t.db.ping;
    t.db.ping = async () => {
      throw new Error('down');
    };
    const res = await t.app.inject({ url: '/api/ready' });
    t.db.ping = ping;
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe('La base de datos no responde.');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    t = await createTestApp();
    for (const url of ['/api/nada', '/api/agenda/ayer', '/api']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json()).toMatchObject({ statusCode: 404, message: 'El recurso solicitado no existe.' });
    }
  });

  it('sends security headers with a strict Content-Security-Policy', async () => {
    t = await createTestApp();
    const res = await t.app.inject({ url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('publishes an OpenAPI document of every route and a reference page', async () => {
    t = await createTestApp();
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/api/ready', '/api/site', '/api/agenda/today', '/api/notas']),
    );
    expect(doc.paths['/api/notas'].get.responses['200']).toBeTruthy();
    const docs = await t.app.inject({ url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger');
  });

  it('keeps the API reference for signed-in admins when so configured (production’s default)', async () => {
    t = await createTestApp({ apiDocs: 'admins' });
    await createUser(t.db, { email: 'admin@comando.test', role: 'admin' });
    await createUser(t.db, { email: 'staff@comando.test', role: 'staff', departments: ['resultados'] });
    const admin = await loginAs(t, 'admin@comando.test');
    const staff = await loginAs(t, 'staff@comando.test');
    for (const url of ['/api/openapi.json', '/api/docs/', '/api/docs/json', '/api/docs/static/index.html']) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(401);
      expect((await t.app.inject({ url, headers: { cookie: staff } })).statusCode, url).toBe(404);
    }
    const doc = await t.app.inject({ url: '/api/openapi.json', headers: { cookie: admin } });
    expect(doc.statusCode).toBe(200);
    expect(Object.keys(doc.json().paths)).toContain('/api/admin/notas');
    expect((await t.app.inject({ url: '/api/docs/', headers: { cookie: admin } })).statusCode).toBe(200);
  });

  it('turns off browser features no page uses (Permissions-Policy)', async () => {
    t = await createTestApp();
    for (const url of ['/api/health', '/api/nada']) {
      const policy = String((await t.app.inject({ url })).headers['permissions-policy']);
      expect(policy).toContain('camera=()');
      expect(policy).toContain('geolocation=()');
      expect(policy).toContain('fullscreen=(self)');
    }
  });

  it('refuses state-changing requests from another origin', async () => {
    t = await createTestApp();
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/notas',
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe('Solicitud rechazada: origen no permitido.');
    const noOrigin = await t.app.inject({ method: 'POST', url: '/api/notas' });
    expect(noOrigin.statusCode).toBe(403);
    const own = await t.request({ method: 'POST', url: '/api/notas' });
    expect(own.statusCode).toBe(404);
  });

  it('compresses large answers', async () => {
    t = await createTestApp();
    const res = await t.app.inject({ url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
  });
});

describe('serving the SPA', () => {
  it('serves files and falls back to index.html for client routes, never for API paths', async () => {
    const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-web-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(webRoot, 'assets', 'app-abc.js'), 'console.log(1)');
    t = await createTestApp({ webRoot });

    const deep = await t.app.inject({ url: '/validation/cabimas' });
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain('id="root"');
    expect(deep.headers['cache-control']).toBe('no-cache');

    const asset = await t.app.inject({ url: '/assets/app-abc.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ url: '/assets/missing.js' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/missing' })).headers['content-type']).toContain('application/json');
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('sends the copy the build compressed to a browser that takes it, the file itself to one that does not', async () => {
    const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-web-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
    const code = `export const greetings = [${Array.from({ length: 400 }, (_, i) => `'hola ${i}'`).join(', ')}];`;
    fs.writeFileSync(path.join(webRoot, 'assets', 'app-abc.js'), code);
    await execFileAsync(process.execPath, ['scripts/compress-build.mjs', webRoot]);
    expect(fs.readdirSync(path.join(webRoot, 'assets')).sort()).toEqual(['app-abc.js', 'app-abc.js.br', 'app-abc.js.gz']);
    t = await createTestApp({ webRoot });

    const get = (encoding?: string) =>
      t!.app.inject({ url: '/assets/app-abc.js', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const br = await get('gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.equals(fs.readFileSync(path.join(webRoot, 'assets', 'app-abc.js.br')))).toBe(true);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(code);
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.headers.vary).toBe('accept-encoding');
    const gzip = await get('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.rawPayload.equals(fs.readFileSync(path.join(webRoot, 'assets', 'app-abc.js.gz')))).toBe(true);
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(code);
    expect(plain.headers.vary).toBe('accept-encoding');
    fs.rmSync(webRoot, { recursive: true, force: true });
  });
});

describe('favicon.ico', () => {
  it('is the project’s icon (16, 32 and 48 px in an ICO file), and a missing file is never the app’s HTML', async () => {
    const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-web-'));
    try {
      fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
      // What `vite build` copies from public/ into dist/.
      fs.copyFileSync(path.resolve(import.meta.dirname, '../../public/favicon.ico'), path.join(webRoot, 'favicon.ico'));
      t = await createTestApp({ webRoot });
      const res = await t.app.inject({ url: '/favicon.ico' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
      const ico = res.rawPayload;
      // ICONDIR: reserved 0, type 1 (icon), the number of images; then 16 bytes per image.
      expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
      const images = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => {
        const entry = 6 + 16 * i;
        const offset = ico.readUInt32LE(entry + 12);
        return { size: ico.readUInt8(entry), png: ico.subarray(offset, offset + 8).toString('latin1') };
      });
      expect(images).toEqual([16, 32, 48].map((size) => ({ size, png: '\x89PNG\r\n\x1a\n' })));

      for (const url of ['/apple-touch-icon.png', '/icons/nada.png?v=2', '/manifest.json']) {
        const missing = await t.app.inject({ url });
        expect(missing.statusCode, url).toBe(404);
        expect(missing.headers['content-type']).toBe('text/plain; charset=utf-8');
      }
      // The app's routes still get the app.
      expect((await t.app.inject({ url: '/admin/registros' })).body).toContain('id="root"');
    } finally {
      fs.rmSync(webRoot, { recursive: true, force: true });
    }
  });
});

describe('robots.txt', () => {
  it('is a real robots.txt from the server, not the app: public pages allowed, the API and staff pages not', async () => {
    const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-web-'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
    t = await createTestApp({ webRoot });
    const res = await t.app.inject({ url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).not.toContain('<');
    const rules = res.body.split('\n').filter(Boolean);
    expect(rules[0]).toBe('User-agent: *');
    for (const path of ['/api/', '/validation/', '/admin']) expect(rules).toContain(`Disallow: ${path}`);
    for (const path of ['/agenda', '/notas', '/login']) {
      expect(rules.some((r) => r.startsWith('Disallow:') && path.startsWith(r.slice(10)))).toBe(false);
    }
    fs.rmSync(webRoot, { recursive: true, force: true });
  });
});

describe('reference and demo data', () => {
  it('creates the spec departments, candidates and settings once, however often it starts', async () => {
    const testDb = await createTestDb();
    try {
      await migrateToLatest(testDb.db);
      await migrateToLatest(testDb.db);
      const now = new Date();
      await seedReferenceData(testDb.db, now);
      await seedReferenceData(testDb.db, now);
      const k = testDb.db.kysely;
      const departments = await k.selectFrom('departments').selectAll().orderBy('position').execute();
      expect(departments.filter((d) => d.kind === 'page').map((d) => d.slug)).toEqual([
        'resultados',
        'notas',
        'agenda',
      ]);
      const municipalities = departments.filter((d) => d.kind === 'municipality').map((d) => d.slug);
      expect(municipalities).toHaveLength(37);
      for (const slug of [
        'bolivar',
        'cacique-mara',
        'san-isidro',
        'santa-lucia',
        'la-canada-de-urdaneta',
        'indigena-bolivariano-guajira',
        'sucre',
      ]) {
        expect(municipalities).toContain(slug);
      }
      const candidates = await k.selectFrom('candidates').select('code').orderBy('position').execute();
      expect(candidates.map((c) => c.code)).toEqual(['FA', 'LC', 'NR']);
      const settings = Object.fromEntries(
        (await k.selectFrom('settings').selectAll().execute()).map((s) => [s.key, s.value]),
      );
      expect(settings).toMatchObject({ results_denominator: '5373', time_zone: 'America/Caracas' });
      expect(settings.leader_name).toBeTruthy();
    } finally {
      await testDb.destroy();
    }
  });

  it('keeps an admin-edited setting when it starts again', async () => {
    const testDb = await createTestDb();
    try {
      await migrateToLatest(testDb.db);
      await seedReferenceData(testDb.db, new Date());
      await testDb.db.kysely
        .updateTable('settings')
        .set({ value: 'Otra Líder' })
        .where('key', '=', 'leader_name')
        .execute();
      await seedReferenceData(testDb.db, new Date());
      const row = await testDb.db.kysely
        .selectFrom('settings')
        .select('value')
        .where('key', '=', 'leader_name')
        .executeTakeFirstOrThrow();
      expect(row.value).toBe('Otra Líder');
    } finally {
      await testDb.destroy();
    }
  });

  it('loads demo content into an empty database only, and only once', async () => {
    const testDb = await createTestDb();
    try {
      const app = await buildApp(testConfig({ demo: true, now: () => new Date('2026-11-22T15:00:00Z') }), {
        db: testDb.db,
        logger: false,
      });
      const agenda = (await app.inject({ url: '/api/agenda/today' })).json();
      expect(agenda.events.length).toBeGreaterThan(0);
      const notas = (await app.inject({ url: '/api/notas?pageSize=100' })).json();
      expect(notas.total).toBeGreaterThanOrEqual(12);
      expect(notas.items.some((n: { contentHtml: string }) => n.contentHtml.includes('<img'))).toBe(true);
      expect(notas.items.some((n: { contentHtml: string }) => n.contentHtml.includes('<ul>'))).toBe(true);
      expect(await loadDemoData(testDb.db, new Date(), () => {})).toBe(false);
      await app.close();
    } finally {
      await testDb.destroy();
    }
  });

  it('never loads demo content over a database that has content of its own', async () => {
    const testDb = await createTestDb();
    try {
      await migrateToLatest(testDb.db);
      await seedReferenceData(testDb.db, new Date());
      const at = new Date().toISOString();
      await testDb.db.kysely
        .insertInto('posts')
        .values({ title: 'Propia', content_html: '<p>x</p>', published_at: at, created_at: at, updated_at: at })
        .execute();
      expect(await loadDemoData(testDb.db, new Date(), () => {})).toBe(false);
      const n = await testDb.db.kysely
        .selectFrom('posts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(1);
    } finally {
      await testDb.destroy();
    }
  });
});
