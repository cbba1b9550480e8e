import { NOTA_HTML_DROPPED_WITH_CONTENT } from '#shared/features/notas/notas.html';

const ORDERED_MARKER = /^\s*\(?([0-9]+|[a-z]{1,4})[.)]/i;

/**
 * Word copies a list as paragraphs with `mso-list` styles and the bullet or number written out in a span.
 * Those become real lists here (nested by their `levelN`), so the editor keeps them as lists.
 */
function wordListsToLists(doc: Document) {
  let stack: HTMLElement[] = [];
  let root: Element | null = null;
  let listId = '';
  for (const paragraph of Array.from(doc.querySelectorAll<HTMLElement>('p[style*="mso-list"]'))) {
    const style = paragraph.getAttribute('style') ?? '';
    const level = Math.max(1, Number(/level(\d+)/i.exec(style)?.[1] ?? 1));
    const id = /\bl(\d+)\b/.exec(style)?.[1] ?? '';
    const marker = paragraph.querySelector('span[style*="mso-list:ignore" i], span[style*="mso-list: ignore" i]');
    const ordered = ORDERED_MARKER.test(marker?.textContent ?? '');
    marker?.remove();
    // A list goes on while its paragraphs follow one another; another list id at the top level starts anew.
    if (!root || paragraph.previousElementSibling !== root || (level === 1 && id !== listId)) {
      stack = [];
      root = null;
    }
    listId = id;
    while (stack.length > level) stack.pop();
    while (stack.length < level) {
      const list = doc.createElement(ordered ? 'ol' : 'ul');
      const parent = stack.at(-1);
      if (parent) {
        const item = parent.lastElementChild ?? parent.appendChild(doc.createElement('li'));
        item.appendChild(list);
      } else {
        paragraph.before(list);
        root = list;
      }
      stack.push(list);
    }
    const item = doc.createElement('li');
    item.append(...Array.from(paragraph.childNodes));
    stack.at(-1)?.appendChild(item);
    paragraph.remove();
  }
}

/**
 * Cleans what is pasted (or dropped) into the notas editor before the editor's schema reads it. The schema
 * already keeps only what the server's sanitiser allows; this handles what a schema cannot see:
 * - whatever the sanitiser drops with its content (script, style, textarea, iframe…) goes with its text;
 * - Word's pretend lists become lists and its empty `<o:p>` placeholders go;
 * - emoji drawn as pictures (WhatsApp Web and other sites) become the emoji they stand for.
 * It parses into an inert document (DOMParser): nothing pasted loads or runs while it is cleaned.
 */
export function cleanPastedHtml(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const element of Array.from(doc.body.querySelectorAll(NOTA_HTML_DROPPED_WITH_CONTENT.join(',')))) {
    element.remove();
  }
  if (/mso-list/i.test(html)) wordListsToLists(doc);
  for (const element of Array.from(doc.body.getElementsByTagName('o:p'))) {
    if (!element.textContent?.replace(/\u00a0/g, ' ').trim()) element.remove();
  }
  for (const image of Array.from(doc.body.querySelectorAll('img'))) {
    const text = image.getAttribute('data-plain-text') ?? (/\bemoji\b/i.test(image.className) ? image.alt : '');
    if (text) image.replaceWith(doc.createTextNode(text));
  }
  return doc.body.innerHTML;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

// WhatsApp's *negrita*, _cursiva_ and ~tachado~: the sign right against a word at both ends, the whole
// thing between spaces or punctuation (so 5*3*2 or archivo_de_texto stay as they are). One may sit inside
// another (*_ambas_*): the other signs, and the tags already written, count as edges too.
const WHATSAPP_STYLE = /(^|[\s([{¡¿'>*_~])([*_~])(?!\s|\2)([^\n]*?\S)\2(?=$|[\s)\]}.,;:!?'<*_~])/g;
const WHATSAPP_TAG: Record<string, string> = { '*': 'strong', _: 'em', '~': 's' };

/**
 * Plain text as WhatsApp copies it, with its style signs, as HTML: a paragraph a line (as for any pasted
 * text) and the signs turned into bold, italic and strikethrough. Null when the text has no such sign.
 */
export function whatsappTextToHtml(text: string): string | null {
  let styled = false;
  const paragraphs = text.split(/(?:\r\n?|\n)+/).map((line) => {
    let html = escapeHtml(line);
    for (let depth = 0; depth < 3; depth++) {
      const next = html.replace(WHATSAPP_STYLE, (_, before: string, sign: string, inner: string) => {
        const tag = WHATSAPP_TAG[sign];
        return `${before}<${tag}>${inner}</${tag}>`;
      });
      if (next === html) break;
      styled = true;
      html = next;
    }
    return `<p>${html}</p>`;
  });
  return styled ? paragraphs.join('') : null;
}
