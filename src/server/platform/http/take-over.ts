import { createHash } from 'node:crypto';

/**
 * The one script written into a page. On a rendered public page the content is in the HTML; this asks
 * for the app's code (the module script and the chunks it imports, as the build wrote them into the
 * head) once the browser reports the page's first contentful paint, so that on a slow link the phone
 * shows the agenda or the notas before it downloads any code, instead of sharing the bandwidth with it.
 * The paint is reported once the frame is on screen: the end of the first frame on the main thread
 * (`requestAnimationFrame` then a task) comes earlier, and is what a browser without paint timing gets.
 * A hidden tab paints nothing: there it asks at once; and it asks after 3 s whatever happened. The
 * addresses come from the element's own attributes, so the text is the same for every build and the
 * Content-Security-Policy allows exactly it by its hash.
 */
export const TAKE_OVER_SCRIPT = `(function () {
  var me = document.currentScript;
  var started = false;
  function add(tag, attributes) {
    var element = document.createElement(tag);
    element.crossOrigin = '';
    element.setAttribute('fetchpriority', 'low');
    for (var name in attributes) element.setAttribute(name, attributes[name]);
    document.head.appendChild(element);
  }
  function start() {
    if (started) return;
    started = true;
    var chunks = (me.getAttribute('data-preload') || '').split(' ');
    for (var i = 0; i < chunks.length; i++) if (chunks[i]) add('link', { rel: 'modulepreload', href: chunks[i] });
    add('script', { type: 'module', src: me.getAttribute('data-module') });
  }
  if (document.visibilityState === 'hidden') return start();
  setTimeout(start, 3000);
  var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes;
  if (!types || types.indexOf('paint') < 0) {
    return requestAnimationFrame(function () { setTimeout(start, 0); });
  }
  new PerformanceObserver(function (list, observer) {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
})();`;

/** The policy's source expression for the script above. */
export const TAKE_OVER_SCRIPT_HASH = `'sha256-${createHash('sha256').update(TAKE_OVER_SCRIPT).digest('base64')}'`;

const MODULE_SCRIPT = /\s*<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>/g;

/**
 * The page with its module script and module preloads taken out of the head and asked for by the
 * take-over script at the end of the body instead. A page without a module script is left as it is.
 */
export function codeAfterFirstPaint(html: string): string {
  const entry = MODULE_SCRIPT.exec(html);
  if (!entry || !html.includes('</body>')) return html;
  const chunks = [...html.matchAll(MODULE_PRELOAD)].map((m) => m[1]);
  const loader = `<script data-module="${entry[1]}" data-preload="${chunks.join(' ')}">${TAKE_OVER_SCRIPT}</script>`;
  return html
    .replace(MODULE_SCRIPT, '')
    .replace(MODULE_PRELOAD, '')
    .replace('</body>', () => `${loader}\n</body>`);
}
