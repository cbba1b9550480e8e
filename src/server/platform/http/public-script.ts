import fs from 'node:fs';
import path from 'node:path';

/** Where `npm run build` writes the public pages' script's manifest (vite.public.config.ts), in the web root. */
export const PUBLIC_SCRIPT_MANIFEST = '.vite/pagina-publica.json';
const PUBLIC_SCRIPT_SOURCE = 'src/web/public-page.ts';

/** The address of the public pages' own script in this build, or undefined without one. */
export function publicScriptOf(webRoot: string): string | undefined {
  const file = path.join(webRoot, PUBLIC_SCRIPT_MANIFEST);
  if (!fs.existsSync(file)) return undefined;
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, { file?: string }>;
  const built = manifest[PUBLIC_SCRIPT_SOURCE]?.file;
  return built ? `/${built}` : undefined;
}

const MODULE_SCRIPT = /\s*<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>/g;
const escapeAttribute = (text: string) =>
  text.replace(/[&"<]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;' })[c]!);

/**
 * The shell made into a public page's template: the app's module script and module preloads leave the
 * head, and the page's own small script goes last in the body instead, with the app's addresses as its
 * attributes (it starts the app for someone signed in, and has it downloaded when the phone is idle).
 * A page without a module script, or without `</body>`, is left as it is.
 */
export function publicScriptInstead(html: string, publicScript: string): string {
  const entry = MODULE_SCRIPT.exec(html);
  if (!entry?.[1] || !html.includes('</body>')) return html;
  const chunks = [...html.matchAll(MODULE_PRELOAD)].map((m) => m[1]);
  const script = `<script type="module" src="${escapeAttribute(publicScript)}" data-app-module="${escapeAttribute(entry[1])}" data-app-chunks="${escapeAttribute(chunks.join(' '))}"></script>`;
  return html
    .replace(MODULE_SCRIPT, '')
    .replace(MODULE_PRELOAD, '')
    .replace('</body>', () => `${script}\n</body>`);
}
