const ALLOWED = new Set(['B', 'STRONG', 'EM', 'I', 'U', 'BR', 'P', 'SPAN', 'SMALL']);

/**
 * Keeps only simple inline formatting from a short message (no attributes, no links, no scripts).
 * DOMParser never runs scripts, and the result is rebuilt from text and allowed tags only.
 */
export function basicSafeHtml(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const out = document.createElement('div');
  const copy = (from: Node, to: Node) => {
    for (const child of Array.from(from.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) {
        to.appendChild(document.createTextNode(child.textContent ?? ''));
      } else if (child.nodeType === Node.ELEMENT_NODE) {
        const el = child as Element;
        if (ALLOWED.has(el.tagName)) {
          const clean = document.createElement(el.tagName.toLowerCase());
          copy(el, clean);
          to.appendChild(clean);
        } else if (!['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'TEMPLATE'].includes(el.tagName)) {
          copy(el, to);
        }
      }
    }
  };
  copy(doc.body, out);
  return out.innerHTML;
}
