import { NOTA_HTML_DROPPED_WITH_CONTENT } from '#shared/features/notas/notas.html';

const ORDERED_MARKER = /^\s*\(?([0-9]+|[a-z]{1,4})[.)]/i;

/**
 * The bullet or number Word writes out before the text of a list paragraph when it is not in its own
 * `mso-list:Ignore` span: '·' (Symbol), 'o' (Courier New), '§' (Wingdings), '•', '-', '1.', 'a)'…, always
 * followed by non-breaking spaces (a typed "o sea" or "1. Introducción" has a plain space).
 */
const FAKE_MARKER =
  /^[\s\u00a0]*(?:[·•◦▪■□➢➤✓§Øo*\u2013\u2014\u2022\u00b7\u25aa\u25cf\u25e6\uf0a7\uf0b7\uf0d8\uf0fc-]|\(?(?:[0-9]+|[a-z]{1,4})[.)])[ \t]*\u00a0[\s\u00a0]*/i;

/** Word's HTML: its namespaces, its `Mso` classes or its `mso-` styles. */
const FROM_WORD = /urn:schemas-microsoft-com:office|class=["']?Mso|mso-/i;

/** Removes the first `count` characters of an element's text, across its text nodes. */
function dropLeadingText(element: Element, count: number) {
  const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let left = count;
  for (let node = walker.nextNode(); node && left > 0; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    node.textContent = text.slice(left);
    left -= Math.min(left, text.length);
  }
}

interface WordListItem {
  paragraph: HTMLElement;
  level: number;
  ordered: boolean;
  /** Word's list number (`l0`, `l1`…), when the paragraph's style says it. */
  id: string;
}

/**
 * Whether a paragraph of Word's is a list item, and which: its `mso-list` style, its `MsoList…` class
 * (MsoListParagraph, MsoListBullet2, MsoListNumber…), its `mso-list:Ignore` marker or, failing all of them,
 * a bullet or number written out before its text. The marker goes in every case.
 */
function wordListItem(paragraph: HTMLElement): WordListItem | undefined {
  const style = paragraph.getAttribute('style') ?? '';
  const className = paragraph.getAttribute('class') ?? '';
  const ignored = paragraph.querySelector('span[style*="mso-list:ignore" i], span[style*="mso-list: ignore" i]');
  const written = ignored ? null : FAKE_MARKER.exec(paragraph.textContent ?? '');
  if (!/mso-list/i.test(style) && !/^MsoList/i.test(className) && !ignored && !written) return undefined;
  const marker = ignored?.textContent ?? written?.[0] ?? '';
  if (ignored) {
    // The marker's font span (Symbol, Courier New, Wingdings) is left empty: it goes too.
    const wrapper = ignored.parentElement;
    ignored.remove();
    if (wrapper && wrapper !== paragraph && !wrapper.textContent?.trim()) wrapper.remove();
  } else if (written) {
    dropLeadingText(paragraph, written[0].length);
  }
  const level = Number(/level(\d+)/i.exec(style)?.[1] ?? /^MsoList\D*(\d+)/i.exec(className)?.[1] ?? 1);
  return {
    paragraph,
    level: Math.min(Math.max(1, level), 9),
    ordered: ORDERED_MARKER.test(marker) || /^MsoListNumber/i.test(className),
    id: /\bl(\d+)\b/.exec(style)?.[1] ?? '',
  };
}

/**
 * Word copies a list as paragraphs with the bullet or number written out. Those become real lists here
 * (nested by their level), so the editor keeps them as lists and no fake bullet is left in the text.
 */
function wordListsToLists(doc: Document) {
  let stack: HTMLElement[] = [];
  let root: Element | null = null;
  let listId = '';
  for (const paragraph of Array.from(doc.body.querySelectorAll<HTMLElement>('p'))) {
    const item = wordListItem(paragraph);
    if (!item) continue;
    const { level, ordered, id } = item;
    // A list goes on while its paragraphs follow one another; another list (its id, or bullets after
    // numbers) at the top level starts anew.
    const otherList = level === 1 && (id !== listId || (root !== null && (root.tagName === 'OL') !== ordered));
    if (!root || paragraph.previousElementSibling !== root || otherList) {
      stack = [];
      root = null;
    }
    listId = id;
    while (stack.length > level) stack.pop();
    while (stack.length < level) {
      const list: HTMLElement = doc.createElement(ordered ? 'ol' : 'ul');
      const parent = stack.at(-1);
      if (parent) {
        const last = parent.lastElementChild ?? parent.appendChild(doc.createElement('li'));
        last.appendChild(list);
      } else {
        paragraph.before(list);
        root = list;
      }
      stack.push(list);
    }
    const li = doc.createElement('li');
    li.append(...Array.from(paragraph.childNodes));
    stack.at(-1)?.appendChild(li);
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
  if (FROM_WORD.test(html)) wordListsToLists(doc);
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
