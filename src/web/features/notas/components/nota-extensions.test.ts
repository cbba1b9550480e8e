import { generateHTML, generateJSON } from '@tiptap/core';
import { describe, expect, it } from 'vitest';
import { NOTA_HTML_ATTRIBUTES, NOTA_HTML_TAGS } from '#shared/features/notas/notas.html';
import { notaExtensions } from './nota-extensions';

const extensions = notaExtensions();
/** What the editor writes for some HTML it is given: parsed by its schema, written out again. */
const throughEditor = (html: string) => generateHTML(generateJSON(html, extensions), extensions);

/** Every tag and attribute in the server's list, each with the junk that editors and office suites add. */
const EVERYTHING = [
  '<h1 class="t" style="color:red" id="x">Uno</h1><h2>Dos</h2><h3>Tres</h3><h4>Cuatro</h4><h5>Cinco</h5><h6>Seis</h6>',
  '<p style="text-align:center" dir="ltr">a <strong>b</strong> <b>b</b> <em>i</em> <i>i</i> <u>u</u> <s>s</s> ',
  '<sub>x</sub> <sup>y</sup> <small>p</small> <mark>m</mark> <code>c</code> <span class="s">span</span><br>',
  '<a href="https://example.org/a" title="Título" target="_self" rel="opener" class="c" onclick="x()">enlace</a> ',
  '<img src="https://example.org/f.jpg" alt="Foto" title="T" width="10" height="20" loading="eager" class="c" onerror="x()"></p>',
  '<blockquote cite="https://x.org"><p>cita</p></blockquote><pre class="p"><code class="language-js">let x = 1;</code></pre><hr class="h">',
  '<ul style="list-style:square"><li>uno</li></ul><ol start="3" type="a"><li>tres</li></ol>',
  '<figure class="wp-block-image"><img src="https://example.org/g.jpg" alt="G"><figcaption>pie</figcaption></figure>',
  '<table style="width:100%" border="1"><colgroup><col width="50"></colgroup><thead><tr><th style="text-align:center" colspan="2" scope="col">H</th></tr></thead>',
  '<tbody><tr><td rowspan="2" align="right" colwidth="40">a</td><td>b</td></tr><tr><td>c</td></tr></tbody></table>',
].join('');

describe('the notas editor’s schema', () => {
  it('writes every structure a nota may hold, with only the tags and attributes the sanitiser keeps', () => {
    const html = throughEditor(EVERYTHING);
    expect(html).toBe(
      [
        '<h1>Uno</h1><h2>Dos</h2><h3>Tres</h3><h4>Cuatro</h4><h5>Cinco</h5><h6>Seis</h6>',
        '<p>a <strong>b</strong> <strong>b</strong> <em>i</em> <em>i</em> <u>u</u> <s>s</s> ',
        '<sub>x</sub> <sup>y</sup> <small>p</small> <mark>m</mark> <code>c</code> span<br>',
        '<a href="https://example.org/a" title="Título">enlace</a> ',
        '<img src="https://example.org/f.jpg" alt="Foto" title="T" width="10" height="20"></p>',
        '<blockquote><p>cita</p></blockquote><pre><code>let x = 1;</code></pre><hr>',
        '<ul><li><p>uno</p></li></ul><ol><li><p>tres</p></li></ol>',
        '<figure><p><img src="https://example.org/g.jpg" alt="G"></p><figcaption>pie</figcaption></figure>',
        '<table><tbody><tr><th colspan="2"><p>H</p></th></tr>',
        '<tr><td rowspan="2"><p>a</p></td><td><p>b</p></td></tr><tr><td><p>c</p></td></tr></tbody></table>',
      ].join(''),
    );
    // And, whatever the exact output, nothing outside the server's list.
    const allowed = new Set<string>(NOTA_HTML_TAGS);
    for (const element of Array.from(new DOMParser().parseFromString(html, 'text/html').body.querySelectorAll('*'))) {
      const tag = element.tagName.toLowerCase();
      expect(allowed.has(tag), tag).toBe(true);
      for (const { name } of Array.from(element.attributes)) {
        expect(NOTA_HTML_ATTRIBUTES[tag] ?? [], `${tag}[${name}]`).toContain(name);
      }
    }
  });

  it('turns the bold and italic styles Google Docs writes into bold and italic, and ignores its wrapper', () => {
    expect(
      throughEditor(
        '<b style="font-weight:normal;" id="docs-internal-guid-1"><p dir="ltr"><span style="font-weight:700">Hoy</span> <span style="font-style:italic">sí</span> <span style="font-weight:400">no</span> <span style="vertical-align:super">2</span></p></b>',
      ),
    ).toBe('<p><strong>Hoy</strong> <em>sí</em> no <sup>2</sup></p>');
  });

  it('keeps links and pictures only at addresses the public page can use', () => {
    expect(
      throughEditor(
        '<p><a href="javascript:alert(1)">a</a> <a href="/relativa">b</a> <a href="mailto:prensa@example.org">c</a> <a href="tel:+584141234567">d</a> <img src="data:image/png;base64,AAAA" alt="e"><img src="/img/x.png" alt="f"><img src="http://example.org/g.png" alt="g"></p>',
      ),
    ).toBe(
      '<p>a b <a href="mailto:prensa@example.org">c</a> <a href="tel:+584141234567">d</a> <img src="http://example.org/g.png" alt="g"></p>',
    );
  });
});
