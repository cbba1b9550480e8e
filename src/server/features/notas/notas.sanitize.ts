import sanitizeHtml from 'sanitize-html';
import {
  NOTA_HTML_ATTRIBUTES,
  NOTA_HTML_DROPPED_WITH_CONTENT,
  NOTA_HTML_TAGS,
} from '#shared/features/notas/notas.html';
import { decodeEntities } from './html-text';

/** An http(s) address, protocol-relative ones (`//player.vimeo.com/...`) read as https. */
function webUrl(raw: string | undefined): URL | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw.startsWith('//') ? `https:${raw}` : raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An embedded player (a video, a map, a post of a social network) cannot run here: it becomes a link to
 * what it showed, so the reader can still open it. Without a web address it is dropped like other
 * unknown tags.
 */
function embedLink(attribute: 'src' | 'data'): sanitizeHtml.Transformer {
  return (tagName, attribs): sanitizeHtml.Tag => {
    const url = webUrl(attribs[attribute]);
    if (!url) return { tagName, attribs: {} };
    const title = attribs.title?.trim();
    return {
      tagName: 'a',
      attribs: { href: url.toString(), rel: 'noopener noreferrer nofollow', target: '_blank' },
      text: title ? `Ver «${title}» en ${url.hostname}` : `Ver el contenido incrustado en ${url.hostname}`,
    };
  };
}

const EMBED_TAGS: ReadonlySet<string> = new Set(['iframe', 'embed', 'object', 'video', 'audio', 'source']);

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...NOTA_HTML_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(NOTA_HTML_ATTRIBUTES).map(([tag, names]) => [tag, [...names]])),
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Everything inside these is dropped, not just the tags. Embedded players become links (below).
  nonTextTags: NOTA_HTML_DROPPED_WITH_CONTENT.filter((tag) => !EMBED_TAGS.has(tag)),
  transformTags: {
    iframe: embedLink('src'),
    embed: embedLink('src'),
    object: embedLink('data'),
    video: embedLink('src'),
    audio: embedLink('src'),
    source: embedLink('src'),
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

/** The origins (scheme, host, port) of the images in sanitised HTML, for the Content-Security-Policy. */
export function imageOriginsOf(cleanHtml: string): string[] {
  const origins = new Set<string>();
  for (const match of cleanHtml.matchAll(/<img\b[^>]*?\ssrc="([^"]*)"/g)) {
    const url = webUrl(decodeEntities(match[1] ?? ''));
    if (url) origins.add(url.origin);
  }
  return [...origins];
}

/** Post titles are plain text: tags (and scripts) removed, character references decoded. */
export function sanitizeNotaTitle(title: string): string {
  return decodeEntities(sanitizeHtml(title, { allowedTags: [], allowedAttributes: {} }))
    .replace(/\s+/g, ' ')
    .trim();
}
