import { describe, expect, it } from 'vitest';
import { WORD_LIST_STYLES, WORD_WRITTEN_BULLETS } from '#web/testing/word-clipboard';
import { cleanPastedHtml, whatsappTextToHtml } from './clean-pasted-html';

/** What Word puts on the clipboard for a title, a bulleted list with a sub-item, and a numbered list. */
const WORD = `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word">
<head><meta name=ProgId content=Word.Document><style><!-- p.MsoNormal {margin:0cm;} --></style></head>
<body lang=ES-VE><!--StartFragment-->
<p class=MsoNormal><b>Ruta<o:p></o:p></b></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span></span><![endif]>Cabimas<o:p></o:p></p>
<p class=MsoListParagraphCxSpMiddle style='margin-left:72.0pt;mso-list:l0 level2 lfo1'><![if !supportLists]><span style='font-family:"Courier New"'><span style='mso-list:Ignore'>o<span>&nbsp;&nbsp; </span></span></span><![endif]>Plaza Bolívar<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span>&nbsp;&nbsp;&nbsp; </span></span></span><![endif]>Lagunillas<o:p></o:p></p>
<p class=MsoNormal><o:p>&nbsp;</o:p></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l1 level1 lfo2'><![if !supportLists]><span><span style='mso-list:Ignore'>1.<span>&nbsp;&nbsp; </span></span></span><![endif]>Agua<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l1 level1 lfo2'><![if !supportLists]><span><span style='mso-list:Ignore'>2.<span>&nbsp;&nbsp; </span></span></span><![endif]>Gorras<o:p></o:p></p>
<!--EndFragment--></body></html>`;

/** Visible structure only: tags and text, without Word's attributes, comments and spacing. */
function outline(html: string): string {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  const walk = (node: Node): string =>
    node.nodeType === Node.TEXT_NODE
      ? (node.textContent ?? '').replace(/\s+/g, ' ').trim()
      : node.nodeType === Node.ELEMENT_NODE
        ? ['span', 'b', 'p'].includes(node.nodeName.toLowerCase()) && node.parentNode?.nodeName === 'LI'
          ? Array.from(node.childNodes).map(walk).join('')
          : `<${node.nodeName.toLowerCase()}>${Array.from(node.childNodes).map(walk).join('')}</${node.nodeName.toLowerCase()}>`
        : '';
  return Array.from(body.childNodes)
    .map(walk)
    .join('')
    .replace(/<span><\/span>/g, '');
}

describe('cleanPastedHtml', () => {
  it('turns Word’s list paragraphs into lists, nested by level and numbered where Word numbered them', () => {
    expect(outline(cleanPastedHtml(WORD))).toBe(
      '<p><b>Ruta</b></p>' +
        '<ul><li>Cabimas<ul><li>Plaza Bolívar</li></ul></li><li>Lagunillas</li></ul>' +
        '<p></p>' +
        '<ol><li>Agua</li><li>Gorras</li></ol>',
    );
  });

  it('turns lists made with Word’s list styles (the list in the class, not the paragraph) into lists', () => {
    const html = cleanPastedHtml(WORD_LIST_STYLES);
    expect(outline(html)).toBe(
      '<p><b><span>Recorrido del sábado</span></b></p>' +
        '<ul><li>Cabimas<ul><li>Plaza Bolívar, 9:00 a. m.</li></ul></li><li>Lagunillas</li></ul>' +
        // A paragraph that only starts like a list item stays a paragraph, as typed.
        '<p><span>o sea, 1. salida a las 8.</span></p>',
    );
    expect(html).not.toMatch(/[·§]|mso-list:\s*ignore/i);
  });

  it('takes out bullets and numbers Word wrote out before the text, and makes the paragraphs lists', () => {
    const html = cleanPastedHtml(WORD_WRITTEN_BULLETS);
    expect(outline(html)).toBe(
      '<ul><li>Agua</li><li>Gorras</li></ul><p><span>Y después:</span></p><ol><li>Caravana</li><li>Mitin</li></ol>',
    );
    expect(html).not.toMatch(/[·§]/);
  });

  it('leaves alone text that starts like a bullet when it does not come from Word', () => {
    expect(cleanPastedHtml('<p>·\u00a0nota de un sitio</p><p>o\u00a0sea</p>')).toBe(
      '<p>·&nbsp;nota de un sitio</p><p>o&nbsp;sea</p>',
    );
  });

  it('drops with their content what the server drops with its content, and leaves the rest to the schema', () => {
    const html = cleanPastedHtml(
      '<p style="color:red">Hola<script>alert(1)</script><textarea>nota</textarea></p><iframe src="https://x.org">marco</iframe><noscript>sin js</noscript>',
    );
    expect(html).toBe('<p style="color:red">Hola</p>');
  });

  it('writes emoji drawn as pictures (WhatsApp Web) as the emoji', () => {
    const html = cleanPastedHtml(
      '<span>Vamos <img alt="💪" data-plain-text="💪" class="emoji wa" src="data:image/gif;base64,R0lGOD"> y <img class="emoji" alt="🇻🇪" src="https://x.org/e.png"></span><img src="https://x.org/foto.jpg" alt="Foto">',
    );
    expect(html).toBe('<span>Vamos 💪 y 🇻🇪</span><img src="https://x.org/foto.jpg" alt="Foto">');
  });
});

describe('whatsappTextToHtml', () => {
  it('turns WhatsApp’s *bold*, _italic_ and ~strikethrough~ into HTML, a paragraph a line', () => {
    expect(whatsappTextToHtml('Reunión *mañana* a las _8_.\nLleven ~sillas~ y *_agua fría_* <ya>')).toBe(
      '<p>Reunión <strong>mañana</strong> a las <em>8</em>.</p><p>Lleven <s>sillas</s> y <strong><em>agua fría</em></strong> &lt;ya&gt;</p>',
    );
  });

  it('leaves alone signs that are not styles, and text without any', () => {
    expect(whatsappTextToHtml('5*3*2 = 30, archivo_de_texto.txt, * suelto *, ~ y ~')).toBeNull();
    expect(whatsappTextToHtml('Sin formato\nen dos líneas')).toBeNull();
  });
});
