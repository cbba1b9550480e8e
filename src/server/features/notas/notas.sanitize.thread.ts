/**
 * The code of the thread that sanitises nota HTML (notas.sanitize.ts starts it). Plain CommonJS, run
 * with `eval: true`, like the image converter's child: the thread needs no TypeScript loader whether
 * the server runs from its bundle, under tsx or under Vitest, and nothing has to be copied next to the
 * bundle. Functions cannot be sent to a thread, so what sanitize-html keeps (the tag and attribute lists
 * shared with the editor, which players become links) arrives as data in `workerData`, and the
 * transforms that act on it are written here.
 *
 * workerData: { sanitizeHtmlPath, tags, attributes, droppedWithContent, embedSources }
 * in:  { id, html }
 * out: { ready: true } once, then { id, html, text } or { id, error } for each post.
 */
export const NOTA_SANITIZER_THREAD = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const sanitizeHtml = require(workerData.sanitizeHtmlPath);

const LINK_ATTRIBUTES = { rel: 'noopener noreferrer nofollow', target: '_blank' };

// An http(s) address, protocol-relative ones ("//player.vimeo.com/...") read as https.
function webUrl(raw) {
  if (!raw) return undefined;
  try {
    const url = new URL(raw.startsWith('//') ? 'https:' + raw : raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

// An embedded player cannot run here: it becomes a link to what it showed, so the reader can still
// open it. Without a web address it is dropped like other unknown tags.
function embedLink(attribute) {
  return (tagName, attribs) => {
    const url = webUrl(attribs[attribute]);
    if (!url) return { tagName, attribs: {} };
    const title = attribs.title ? attribs.title.trim() : '';
    return {
      tagName: 'a',
      attribs: Object.assign({ href: url.toString() }, LINK_ATTRIBUTES),
      text: title ? 'Ver «' + title + '» en ' + url.hostname : 'Ver el contenido incrustado en ' + url.hostname,
    };
  };
}

const transformTags = {};
for (const [tag, attribute] of Object.entries(workerData.embedSources)) transformTags[tag] = embedLink(attribute);
transformTags.a = (tagName, attribs) => ({ tagName, attribs: Object.assign({}, attribs, LINK_ATTRIBUTES) });
transformTags.img = (tagName, attribs) => ({ tagName, attribs: Object.assign({}, attribs, { loading: 'lazy' }) });

const nota = {
  allowedTags: workerData.tags,
  allowedAttributes: workerData.attributes,
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Everything inside these is dropped, not just the tags; embedded players become links instead.
  nonTextTags: workerData.droppedWithContent.filter((tag) => !(tag in workerData.embedSources)),
  transformTags,
};
const textOnly = { allowedTags: [], allowedAttributes: {} };
// Block ends become spaces, so "<p>a</p><p>b</p>" reads "a b".
const BLOCK_END = /<\/(p|h[1-6]|li|blockquote|figcaption|td|th)>|<br\s*\/?>/gi;

parentPort.on('message', (job) => {
  try {
    const html = sanitizeHtml(job.html, nota);
    const text = sanitizeHtml(html.replace(BLOCK_END, '$& '), textOnly);
    parentPort.postMessage({ id: job.id, html, text });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) });
  }
});
parentPort.postMessage({ ready: true });
`;
