import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { createNotasRepository } from './notas.repository';

let t: TestApp;
afterEach(async () => t?.close());

const XSS = [
  '<script>window.__pwned = 1</script><p>visible</p>',
  '<img src="x" onerror="window.__pwned=1">',
  '<a href="javascript:window.__pwned=1">clic</a>',
  '<a href="JaVaScRiPt:alert(1)">clic</a>',
  '<p onclick="alert(1)" style="color:red">texto</p>',
  '<iframe src="https://evil.example"></iframe>',
  '<svg onload="alert(1)"><circle/></svg>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<a href="  javascript:alert(1)">espacios</a>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
];

describe('GET /api/notas', () => {
  it('lists every published post, newest first, beyond the 99 the original stopped at', async () => {
    t = await createTestApp();
    const repo = createNotasRepository(t.db.kysely);
    const base = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 250; i++) {
      await repo.insert(
        { title: `Nota ${i}`, html: `<p>${i}</p>`, publishedAt: new Date(base + i * 60_000).toISOString() },
        new Date(),
      );
    }
    await repo.insert({ title: 'Borrador', html: '<p>no</p>', publishedAt: null }, new Date());

    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const res = await t.app.inject({ url: `/api/notas?page=${page}&pageSize=100` });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.total).toBe(250);
      seen.push(...body.items.map((n: { title: string }) => n.title));
      if (page >= body.totalPages) break;
    }
    expect(seen).toHaveLength(250);
    expect(seen[0]).toBe('Nota 249');
    expect(seen.at(-1)).toBe('Nota 0');
    expect(seen).not.toContain('Borrador');
  });

  it('strips scripts, event handlers and javascript: URLs when storing and when serving', async () => {
    t = await createTestApp();
    const repo = createNotasRepository(t.db.kysely);
    for (const [i, html] of XSS.entries()) {
      await repo.insert({ title: `<b>XSS ${i}</b>`, html, publishedAt: new Date().toISOString() }, new Date());
    }
    // A row written behind the app's back (an old version, a manual fix) is cleaned when served.
    await t.db.kysely
      .insertInto('posts')
      .values({
        title: 'Cruda',
        content_html: '<p onmouseover="alert(1)">x</p><script>alert(1)</script>',
        published_at: new Date().toISOString(),
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();

    const stored = await t.db.kysely
      .selectFrom('posts')
      .select(['title', 'content_html'])
      .where('title', '!=', 'Cruda')
      .execute();
    const served = (await t.app.inject({ url: '/api/notas?pageSize=100' })).json().items as {
      title: string;
      contentHtml: string;
    }[];
    for (const html of [...stored.map((s) => s.content_html), ...served.map((s) => s.contentHtml)]) {
      expect(html).not.toMatch(/<script|<iframe|<svg|<math/i);
      expect(html).not.toMatch(/\son\w+\s*=/i);
      expect(html).not.toMatch(/javascript:/i);
      expect(html).not.toMatch(/data:/i);
      expect(html).not.toMatch(/style=/i);
    }
    expect(served.find((s) => s.title === 'XSS 0')?.contentHtml).toBe('<p>visible</p>');
    expect(stored.every((s) => !s.title.includes('<'))).toBe(true);
  });

  it('keeps the formatting a nota needs and makes links safe', async () => {
    t = await createTestApp();
    const repo = createNotasRepository(t.db.kysely);
    await repo.insert(
      {
        title: 'Formato',
        html: '<h2>T</h2><ul><li>a</li></ul><ol><li>b</li></ol><a href="https://example.org">l</a><img src="/img/x.svg" alt="x">',
        publishedAt: new Date().toISOString(),
      },
      new Date(),
    );
    const [nota] = (await t.app.inject({ url: '/api/notas' })).json().items;
    expect(nota.contentHtml).toContain('<h2>T</h2>');
    expect(nota.contentHtml).toContain('<ul><li>a</li></ul>');
    expect(nota.contentHtml).toContain(
      '<a href="https://example.org" rel="noopener noreferrer nofollow" target="_blank">l</a>',
    );
    expect(nota.contentHtml).toContain('<img src="/img/x.svg" alt="x" loading="lazy" />');
  });

  it('refuses a malformed page number with a Spanish message', async () => {
    t = await createTestApp();
    const res = await t.app.inject({ url: '/api/notas?page=0' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/[a-záéíóú]/i);
    expect(res.json().message).not.toMatch(/Invalid|expected/);
  });
});
