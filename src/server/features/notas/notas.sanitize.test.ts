import { afterEach, describe, expect, it } from 'vitest';
import { plainTextHtml, stripTags } from './html-text';
import { createNotaHtml, exceedsNotaLimits, NOTA_HTML_LIMITS, type NotaHtml, NotaHtmlRefused } from './notas.sanitize';

let html: NotaHtml | undefined;
afterEach(() => {
  html?.close();
  html = undefined;
});

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
    expect((await html.sanitize('<img src="https://example.org/a.jpg">')).hasContent).toBe(true);
  });

  it('refuses HTML past its bounds without starting to parse it, and HTML past its time budget', async () => {
    html = createNotaHtml({ limits: { maxDepth: 10 }, budgetMs: 50 });
    await expect(html.sanitize('<b>'.repeat(11))).rejects.toMatchObject({ reason: 'depth' });
    html.close();
    html = createNotaHtml({ limits: { maxDepth: 1_000_000, maxElements: 1_000_000 }, budgetMs: 50 });
    const refused = await html.sanitize('<b>'.repeat(66_000)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NotaHtmlRefused);
    expect((refused as NotaHtmlRefused).reason).toBe('time');
    // The next post gets a fresh thread.
    expect((await html.sanitize('<p>bien</p>')).html).toBe('<p>bien</p>');
  });
});
