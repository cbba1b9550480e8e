import sanitizeHtml from 'sanitize-html';
import { decodeEntities } from './html-text';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'small',
    'mark',
    'span',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Everything inside these is dropped, not just the tags.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed'],
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: 'noopener noreferrer nofollow', target: '_blank' },
    }),
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy' } }),
  },
};

/** Makes post HTML safe to render: no script, no event handler, no `javascript:` URL can survive. */
export function sanitizeNotaHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

// Serving re-sanitises every post; the result depends only on the input, so keep recent answers.
const servedCache = new Map<string, string>();
const SERVED_CACHE_MAX = 500;

/** sanitizeNotaHtml with a small memo, for the hot read path. */
export function sanitizeNotaHtmlCached(html: string): string {
  const hit = servedCache.get(html);
  if (hit !== undefined) return hit;
  const clean = sanitizeNotaHtml(html);
  if (servedCache.size >= SERVED_CACHE_MAX) servedCache.clear();
  servedCache.set(html, clean);
  return clean;
}

/** Post titles are plain text: tags (and scripts) removed, character references decoded. */
export function sanitizeNotaTitle(title: string): string {
  return decodeEntities(sanitizeHtml(title, { allowedTags: [], allowedAttributes: {} }))
    .replace(/\s+/g, ' ')
    .trim();
}
