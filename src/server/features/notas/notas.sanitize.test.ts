import { afterEach, describe, expect, it } from 'vitest';
import { manualNotaTimers } from '#server/testing/notas';
import { NOTA_HTML_TAGS } from '#shared/features/notas/notas.html';
import { plainTextHtml, stripTags } from './html-text';
import { createNotaHtml, exceedsNotaLimits, NOTA_HTML_LIMITS, type NotaHtml, NotaHtmlRefused } from './notas.sanitize';

let html: NotaHtml | undefined;
afterEach(() => {
  html?.close();
  html = undefined;
});

/** Bounds lifted, so that hostile HTML reaches the thread itself, as anything within the bounds would. */
const LIFTED = { maxDepth: 10_000_000, maxElements: 10_000_000 };

describe('the nota sanitiser’s bounds, checked before parsing', () => {
  it('names what a post exceeds: depth, element count, size', () => {
    expect(exceedsNotaLimits('<b>'.repeat(66_000), NOTA_HTML_LIMITS)).toBe('depth');
    expect(exceedsNotaLimits(`${'<div>'.repeat(201)}x`, NOTA_HTML_LIMITS)).toBe('depth');
    expect(exceedsNotaLimits(`${'<div>'.repeat(200)}x${'</div>'.repeat(200)}`, NOTA_HTML_LIMITS)).toBeUndefined();
    // Closed elements, however many in a row, and elements whose end tag may be left out do not nest.
    expect(exceedsNotaLimits('<b>x</b>'.repeat(5_000), NOTA_HTML_LIMITS)).toBeUndefined();
    expect(exceedsNotaLimits('<p>uno<li>dos<br><img src="x"><hr/>'.repeat(1_000), NOTA_HTML_LIMITS)).toBeUndefined();
    expect(exceedsNotaLimits('<p>x'.repeat(20_001), NOTA_HTML_LIMITS)).toBe('elements');
    expect(exceedsNotaLimits('x'.repeat(1_000_001), NOTA_HTML_LIMITS)).toBe('size');
    expect(exceedsNotaLimits('a < b y 3<4 <!-- <b><b> -->', NOTA_HTML_LIMITS)).toBeUndefined();
  });

  it('reads hostile input in one pass: "<" without ">" does not make it rescan (this would not finish otherwise)', () => {
    expect(exceedsNotaLimits('<a'.repeat(400_000), NOTA_HTML_LIMITS)).toBeUndefined();
    expect(stripTags('<a'.repeat(400_000))).toBe('');
    expect(stripTags('<!--'.repeat(200_000))).toBe('');
  });
});

describe('the text shown instead of refused HTML', () => {
  it('keeps the words, escaped, paragraph by paragraph, and nothing of the markup or scripts', () => {
    expect(
      plainTextHtml(
        '<h2>Título</h2><p onclick="x()">a &lt;b&gt; &amp; c<br>d</p><script>alert(1)</script><style>p{}</style>fin',
      ),
    ).toBe('<p>Título</p><p>a &lt;b&gt; &amp; c</p><p>d</p><p>fin</p>');
  });

  it('makes the text of the nesting bomb in one pass, however often (one space per run of tags)', () => {
    // 66,000 tags in a row: appending to one string per tag turned quadratic once V8 optimised the loop
    // (about 17 s a call from the third call on); these ten calls would not end within the test's time.
    const bomb = `<p>Hola</p>${'<b>'.repeat(66_000)}<script>x()</script>fin`;
    expect(stripTags(bomb)).toBe(' Hola fin');
    for (let i = 0; i < 10; i++) expect(plainTextHtml(bomb)).toBe('<p>Hola</p><p>fin</p>');
  });
});

describe('the sanitiser thread', () => {
  it('cleans HTML, gives its text, and says whether anything is left to show', async () => {
    html = createNotaHtml();
    const clean = await html.sanitize(
      '<p onclick="x()">Hola <b>mundo</b></p><p>&amp; más</p><script>alert(1)</script>',
    );
    expect(clean).toEqual({
      html: '<p>Hola <b>mundo</b></p><p>&amp; más</p>',
      text: 'Hola mundo &amp; más ',
      hasContent: true,
    });
    expect((await html.sanitize('<script>alert(1)</script><p> </p>')).hasContent).toBe(false);
    expect((await html.sanitize('<p>&nbsp;</p><iframe></iframe>')).hasContent).toBe(false);
    expect((await html.sanitize('<img src="https://example.org/a.jpg">')).hasContent).toBe(true);
  });

  it('keeps every tag the editor may write, with the links’ and images’ attributes set', async () => {
    html = createNotaHtml();
    for (const tag of NOTA_HTML_TAGS) {
      const input = tag === 'br' || tag === 'hr' || tag === 'img' ? `<${tag}>` : `<${tag}>x</${tag}>`;
      expect((await html.sanitize(input)).html, tag).toMatch(new RegExp(`^<${tag}[ />]`));
    }
    expect((await html.sanitize('<a href="https://example.org" rel="opener" target="_self">a</a>')).html).toBe(
      '<a href="https://example.org" rel="noopener noreferrer nofollow" target="_blank">a</a>',
    );
    expect((await html.sanitize('<img src="https://example.org/a.jpg" onerror="x()">')).html).toBe(
      '<img src="https://example.org/a.jpg" loading="lazy" />',
    );
    expect((await html.sanitize('<div><font>texto</font></div><textarea>fuera</textarea>')).html).toBe('texto');
  });

  it('turns every kind of embedded player into a link to what it showed, or drops it without an address', async () => {
    html = createNotaHtml();
    const link = (href: string, text: string) =>
      `<a href="${href}" rel="noopener noreferrer nofollow" target="_blank">${text}</a>`;
    expect((await html.sanitize('<object data="https://mapas.example.org/m"></object>')).html).toBe(
      link('https://mapas.example.org/m', 'Ver el contenido incrustado en mapas.example.org'),
    );
    expect((await html.sanitize('<embed src="//media.example.org/a.swf" title=" Acto ">')).html).toBe(
      link('https://media.example.org/a.swf', 'Ver «Acto» en media.example.org'),
    );
    expect((await html.sanitize('<audio controls><source src="https://radio.example.org/a.mp3"></audio>')).html).toBe(
      link('https://radio.example.org/a.mp3', 'Ver el contenido incrustado en radio.example.org'),
    );
    expect((await html.sanitize('<p>a</p><iframe src="javascript:alert(1)"></iframe><video src="data:x">')).html).toBe(
      '<p>a</p>',
    );
  });

  it('refuses HTML past its bounds without starting to parse it', async () => {
    html = createNotaHtml({ limits: { maxDepth: 10 } });
    await expect(html.sanitize('<b>'.repeat(11))).rejects.toMatchObject({ reason: 'depth' });
    await expect(html.sanitize('<b>'.repeat(11))).rejects.toBeInstanceOf(NotaHtmlRefused);
  });

  it('stops a post past its time budget, and gives the next post a fresh thread', async () => {
    // The budget's timer is fired by the test: the refusal does not depend on how long the bomb takes.
    const clock = manualNotaTimers();
    html = createNotaHtml({ limits: LIFTED, budgetMs: 3_000, timers: clock.timers });
    const refused = html.sanitize(`<p>Hola</p>${'<b>'.repeat(66_000)}fin`).catch((error: unknown) => error);
    (await clock.whenSet(3_000)).runOut();
    expect(await refused).toBeInstanceOf(NotaHtmlRefused);
    expect(((await refused) as NotaHtmlRefused).reason).toBe('time');
    expect((await html.sanitize('<p>bien</p>')).html).toBe('<p>bien</p>');
  });

  it('stops a post past its time budget on the real clock', async () => {
    // 333,000 unclosed <b> need minutes here (20,000 took 2 s and the time grows with the square of the
    // depth): certain to run past half a second on any machine.
    html = createNotaHtml({ limits: LIFTED, budgetMs: 500 });
    await expect(html.sanitize('<b>'.repeat(333_000))).rejects.toMatchObject({ reason: 'time' });
  });

  it('ends its thread after a while without work, and starts one again for the next post', async () => {
    const clock = manualNotaTimers();
    html = createNotaHtml({ budgetMs: 3_000, idleMs: 30_000, timers: clock.timers });
    expect((await html.sanitize('<p>uno</p>')).html).toBe('<p>uno</p>');
    (await clock.whenSet(30_000)).runOut();
    expect((await html.sanitize('<p>dos</p>')).html).toBe('<p>dos</p>');
  });
});
