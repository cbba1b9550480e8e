const DROP = new Set([
  'SCRIPT',
  'STYLE',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'TEMPLATE',
  'FORM',
  'INPUT',
  'BUTTON',
  'SVG',
  'MATH',
]);
const SAFE_URL = /^(https?:|mailto:|tel:|\/|#)/i;

/**
 * The editor's HTML made harmless for the preview beside it: no scripts, frames or forms, no event
 * handlers, no URL but http(s), mailto, tel and the site's own. The server sanitises properly on save;
 * this only keeps a pasted fragment from doing anything in the author's own browser meanwhile.
 */
export function previewHtml(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const element of Array.from(doc.body.querySelectorAll('*'))) {
    if (DROP.has(element.tagName.toUpperCase())) {
      element.remove();
      continue;
    }
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      const url = name === 'href' || name === 'src' || name === 'xlink:href';
      if (
        name.startsWith('on') ||
        name === 'style' ||
        name === 'srcset' ||
        (url && !SAFE_URL.test(attribute.value.trim()))
      ) {
        element.removeAttribute(attribute.name);
      }
    }
  }
  return doc.body.innerHTML;
}
