import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import type { Config } from '#server/platform/config/config';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { wordpressNotas } from '#server/testing/notas';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { startWordpressContractServer, type WordpressContractServer } from '#tests/support/wordpress-contract-server';

let t: TestApp | undefined;
let wp: WordpressContractServer | undefined;
afterEach(async () => {
  await t?.close();
  await wp?.close();
  t = undefined;
  wp = undefined;
});

const PEOPLE = {
  admin: 'jefa@example.org',
  notas: 'notas@example.org',
  agenda: 'agenda@example.org',
  validator: 'validador@example.org',
  outsider: 'nadie@example.org',
} as const;
type Person = keyof typeof PEOPLE;

async function setup(overrides: Partial<Config> = {}): Promise<{ t: TestApp; cookies: Record<Person, string> }> {
  const app = await createTestApp(overrides);
  t = app;
  await createUser(app.db, { email: PEOPLE.admin, role: 'admin' });
  await createUser(app.db, { email: PEOPLE.notas, role: 'staff', departments: ['notas'] });
  await createUser(app.db, { email: PEOPLE.agenda, role: 'staff', departments: ['agenda'] });
  await createUser(app.db, { email: PEOPLE.validator, role: 'staff', departments: ['cabimas'] });
  await createUser(app.db, { email: PEOPLE.outsider, role: 'staff' });
  const cookies = {} as Record<Person, string>;
  for (const person of Object.keys(PEOPLE) as Person[]) cookies[person] = await sessionCookie(app, PEOPLE[person]);
  return { t: app, cookies };
}

const publicTitles = async (app: TestApp) =>
  (await app.app.inject({ url: '/api/notas?pageSize=100' })).json().items.map((n: { title: string }) => n.title);

const HOSTILE =
  '<h2>Subtítulo</h2><p onclick="alert(1)">Hola <strong>fuerte</strong> <em>suave</em></p><script>alert(1)</script>' +
  '<ul><li>uno</li></ul><ol><li>dos</li></ol><a href="javascript:alert(1)">mal</a><a href="https://example.org">bien</a>' +
  '<img src="https://example.org/foto.jpg" alt="Foto" onerror="alert(1)"><iframe src="https://evil.example"></iframe>';

describe('notas editor: who may use it', () => {
  it('lets admins and the Notas list in; a visitor gets 401 and anyone else 404 on every route', async () => {
    const { t, cookies } = await setup();
    const created = await t.request({
      method: 'POST',
      url: '/api/admin/notas',
      headers: { cookie: cookies.admin },
      payload: { title: 'Base', contentHtml: '<p>texto</p>' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().nota.id as number;
    const routes = [
      { method: 'GET', url: '/api/admin/notas' },
      { method: 'GET', url: `/api/admin/notas/${id}` },
      { method: 'POST', url: '/api/admin/notas', payload: { title: 'Nueva', contentHtml: '<p>x</p>' } },
      { method: 'PUT', url: `/api/admin/notas/${id}`, payload: { title: 'Cambio', contentHtml: '<p>y</p>' } },
      { method: 'POST', url: `/api/admin/notas/${id}/publish` },
      { method: 'POST', url: `/api/admin/notas/${id}/unpublish` },
      { method: 'DELETE', url: `/api/admin/notas/${id}` },
    ] as const;
    for (const route of routes) {
      const as = async (cookie?: string) =>
        (await t.request({ ...route, headers: cookie ? { cookie } : {} })).statusCode;
      expect(await as(), `${route.method} ${route.url} as a visitor`).toBe(401);
      for (const person of ['agenda', 'validator', 'outsider'] as const) {
        expect(await as(cookies[person]), `${route.method} ${route.url} as ${person}`).toBe(404);
      }
    }
    const stored = await t.request({ url: `/api/admin/notas/${id}`, headers: { cookie: cookies.notas } });
    expect(stored.json()).toMatchObject({ title: 'Base', status: 'borrador' });
    for (const [i, route] of routes.entries()) {
      const res = await t.request({ ...route, headers: { cookie: i % 2 ? cookies.admin : cookies.notas } });
      expect(res.statusCode, `${route.method} ${route.url}`).toBeLessThan(300);
    }
  });
});

describe('notas editor: writing and publishing', () => {
  it('keeps drafts off the public site; publishing and unpublishing show at once', async () => {
    const { t, cookies } = await setup();
    expect(await publicTitles(t)).toEqual([]); // cached as empty
    const draft = await t.request({
      method: 'POST',
      url: '/api/admin/notas',
      headers: { cookie: cookies.notas },
      payload: { title: 'Borrador', contentHtml: '<p>todavía no</p>' },
    });
    expect(draft.statusCode).toBe(201);
    expect(draft.json()).toMatchObject({
      message: 'Nota guardada como borrador.',
      nota: { title: 'Borrador', status: 'borrador', publishedAt: null },
    });
    const id = draft.json().nota.id;
    expect(await publicTitles(t)).toEqual([]);

    const published = await t.request({
      method: 'POST',
      url: `/api/admin/notas/${id}/publish`,
      headers: { cookie: cookies.notas },
    });
    expect(published.statusCode).toBe(200);
    expect(published.json()).toMatchObject({ message: 'Nota publicada.', nota: { status: 'publicada' } });
    const publishedAt = published.json().nota.publishedAt;
    expect(publishedAt).toBeTruthy();
    expect(await publicTitles(t)).toEqual(['Borrador']);

    // Publishing again keeps the date and writes no audit row.
    const again = await t.request({
      method: 'POST',
      url: `/api/admin/notas/${id}/publish`,
      headers: { cookie: cookies.notas },
    });
    expect(again.json().nota.publishedAt).toBe(publishedAt);

    const edited = await t.request({
      method: 'PUT',
      url: `/api/admin/notas/${id}`,
      headers: { cookie: cookies.notas },
      payload: { title: 'Publicada y corregida', contentHtml: '<p>ya</p>' },
    });
    expect(edited.json()).toMatchObject({ message: 'Cambios guardados.', nota: { status: 'publicada', publishedAt } });
    expect(await publicTitles(t)).toEqual(['Publicada y corregida']);

    const unpublished = await t.request({
      method: 'POST',
      url: `/api/admin/notas/${id}/unpublish`,
      headers: { cookie: cookies.notas },
    });
    expect(unpublished.json()).toMatchObject({
      message: 'La nota volvió a borrador: ya no se muestra en el sitio.',
      nota: { status: 'borrador', publishedAt: null },
    });
    expect(await publicTitles(t)).toEqual([]);

    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/admin/notas/${id}`,
      headers: { cookie: cookies.notas },
    });
    expect(deleted.json().message).toBe('Nota eliminada.');
    const gone = await t.request({ url: `/api/admin/notas/${id}`, headers: { cookie: cookies.notas } });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('La nota no existe.');

    const audit = (await listAudit(t.db.kysely)).filter((a) => a.action.startsWith('nota.'));
    expect(audit.map((a) => a.action)).toEqual([
      'nota.delete',
      'nota.unpublish',
      'nota.update',
      'nota.publish',
      'nota.create',
    ]);
    for (const a of audit) {
      expect(a).toMatchObject({ actor_email: PEOPLE.notas, department_slug: 'notas', target: `nota:${id}` });
    }
    expect(JSON.parse(audit[2]!.details!)).toEqual({ title: 'Publicada y corregida', status: 'publicada' });
  });

  it('sanitises the HTML on save and keeps headings, bold, italic, lists, links and images', async () => {
    const { t, cookies } = await setup();
    const res = await t.request({
      method: 'POST',
      url: '/api/admin/notas',
      headers: { cookie: cookies.admin },
      payload: { title: '<b>Con</b> formato &amp; más', contentHtml: HOSTILE, publish: true },
    });
    expect(res.statusCode).toBe(201);
    const { nota } = res.json();
    expect(nota.title).toBe('Con formato & más');
    const stored = await t.db.kysely.selectFrom('posts').select('content_html').executeTakeFirstOrThrow();
    for (const html of [nota.contentHtml, stored.content_html]) {
      expect(html).not.toMatch(/<script|<iframe|onclick|onerror|javascript:/i);
      expect(html).toContain('<h2>Subtítulo</h2>');
      expect(html).toContain('<strong>fuerte</strong> <em>suave</em>');
      expect(html).toContain('<ul><li>uno</li></ul><ol><li>dos</li></ol>');
      expect(html).toContain(
        '<a href="https://example.org" rel="noopener noreferrer nofollow" target="_blank">bien</a>',
      );
      expect(html).toContain('<img src="https://example.org/foto.jpg" alt="Foto" loading="lazy" />');
    }
    const update = await t.request({
      method: 'PUT',
      url: `/api/admin/notas/${nota.id}`,
      headers: { cookie: cookies.admin },
      payload: { title: 'Otra', contentHtml: '<p style="color:red" onmouseover="x()">limpio</p>' },
    });
    expect(update.json().nota.contentHtml).toBe('<p>limpio</p>');
  });

  it.each([
    ['an empty title', { title: '', contentHtml: '<p>x</p>' }, 'Escribe el título de la nota.'],
    [
      'a title that is only code',
      { title: '<script>x</script>', contentHtml: '<p>x</p>' },
      'Escribe el título de la nota.',
    ],
    [
      'a title of 201 characters',
      { title: 'x'.repeat(201), contentHtml: '<p>x</p>' },
      'El título no puede tener más de 200 caracteres.',
    ],
    ['an empty paragraph', { title: 'Vacía', contentHtml: '<p><br></p>' }, 'Escribe el contenido de la nota.'],
    [
      'content that is only a script',
      { title: 'Solo código', contentHtml: '<script>alert(1)</script>' },
      'Escribe el contenido de la nota.',
    ],
    [
      'more than 200,000 characters of HTML',
      { title: 'Enorme', contentHtml: `<p>${'x'.repeat(200_001)}</p>` },
      'El contenido es demasiado largo (máximo 200.000 caracteres de HTML).',
    ],
  ])('refuses %s with a Spanish message', async (_name, body, message) => {
    const { t, cookies } = await setup();
    const res = await t.request({
      method: 'POST',
      url: '/api/admin/notas',
      headers: { cookie: cookies.admin },
      payload: body,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await t.db.kysely.selectFrom('posts').selectAll().execute()).toEqual([]);
  });

  it('lists drafts and published notas for editors, filtered and searched, with a plain-text excerpt', async () => {
    const { t, cookies } = await setup();
    const make = (title: string, publish: boolean) =>
      t.request({
        method: 'POST',
        url: '/api/admin/notas',
        headers: { cookie: cookies.admin },
        payload: { title, contentHtml: `<h2>${title}</h2><p>Primer párrafo &amp; <b>más</b>.</p>`, publish },
      });
    await make('Caravana del domingo', true);
    await make('Borrador de discurso', false);
    await make('Caravana del lunes', false);
    const list = async (query: string) =>
      (await t.request({ url: `/api/admin/notas${query}`, headers: { cookie: cookies.notas } })).json();
    const all = await list('');
    expect(all).toMatchObject({ source: 'local', total: 3, totalPages: 1 });
    expect(all.items.map((n: { title: string }) => n.title)).toEqual([
      'Caravana del lunes',
      'Borrador de discurso',
      'Caravana del domingo',
    ]);
    expect(all.items[0].excerpt).toBe('Caravana del lunes Primer párrafo & más.');
    expect(all.items[0]).not.toHaveProperty('contentHtml');
    expect((await list('?status=borradores')).items).toHaveLength(2);
    expect((await list('?status=publicadas')).items.map((n: { title: string }) => n.title)).toEqual([
      'Caravana del domingo',
    ]);
    expect((await list('?q=CARAVANA&status=borradores')).items.map((n: { title: string }) => n.title)).toEqual([
      'Caravana del lunes',
    ]);
    expect((await list('?q=100%25')).items).toEqual([]);
    expect((await list('?pageSize=2&page=2')).items).toHaveLength(1);
  });
});

describe('notas editor: excerpts', () => {
  it('keeps each nota’s excerpt with it; rows saved before excerpts were kept get theirs when first listed', async () => {
    const { t, cookies } = await setup();
    const created = await t.request({
      method: 'POST',
      url: '/api/admin/notas',
      headers: { cookie: cookies.admin },
      payload: { title: 'Con resumen', contentHtml: '<p>Uno</p><p>dos &amp; <b>tres</b></p>' },
    });
    const excerptOf = async (id: number) =>
      (await t.db.kysely.selectFrom('posts').select('excerpt').where('id', '=', id).executeTakeFirstOrThrow()).excerpt;
    expect(await excerptOf(created.json().nota.id)).toBe('Uno dos & tres');
    const updated = await t.request({
      method: 'PUT',
      url: `/api/admin/notas/${created.json().nota.id}`,
      headers: { cookie: cookies.admin },
      payload: { title: 'Con resumen', contentHtml: '<p>Cambiado</p>' },
    });
    expect(updated.statusCode).toBe(200);
    expect(await excerptOf(created.json().nota.id)).toBe('Cambiado');

    // A row written before migration 011-nota-excerpts: no excerpt yet.
    const at = '2020-01-01T00:00:00.000Z';
    const old = await t.db.kysely
      .insertInto('posts')
      .values({ title: 'Vieja', content_html: '<h2>Vieja</h2><p>sin resumen</p>', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const list = (await t.request({ url: '/api/admin/notas', headers: { cookie: cookies.notas } })).json();
    expect(list.items.map((n: { excerpt: string }) => n.excerpt)).toEqual(['Cambiado', 'Vieja sin resumen']);
    expect(await excerptOf(old.id)).toBe('Vieja sin resumen');
  });
});

describe('notas editor with WordPress as the source', () => {
  it('says the notas are managed in WordPress and refuses every change clearly', async () => {
    wp = await startWordpressContractServer([]);
    const { t, cookies } = await setup({ notas: wordpressNotas(wp.url) });
    const list = await t.request({ url: '/api/admin/notas', headers: { cookie: cookies.notas } });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({
      source: 'wordpress',
      items: [],
      notice:
        'Las notas de este sitio se administran en WordPress: créalas y edítalas allí. Aquí no se pueden cambiar.',
    });
    for (const route of [
      { method: 'POST', url: '/api/admin/notas', payload: { title: 'x', contentHtml: '<p>x</p>' } },
      { method: 'POST', url: '/api/admin/notas', payload: { title: '' } },
      { method: 'PUT', url: '/api/admin/notas/1', payload: { title: 'x', contentHtml: '<p>x</p>' } },
      { method: 'POST', url: '/api/admin/notas/1/publish' },
      { method: 'DELETE', url: '/api/admin/notas/1' },
    ] as const) {
      const res = await t.request({ ...route, headers: { cookie: cookies.admin } });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(409);
      expect(res.json().message).toMatch(/se administran en WordPress/);
    }
    // Who may not use the editor still learns nothing.
    expect((await t.request({ method: 'POST', url: '/api/admin/notas/1/publish' })).statusCode).toBe(401);
    const outsider = await t.request({
      method: 'POST',
      url: '/api/admin/notas/1/publish',
      headers: { cookie: cookies.outsider },
    });
    expect(outsider.statusCode).toBe(404);
  });
});
