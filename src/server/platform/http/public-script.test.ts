import { describe, expect, it } from 'vitest';
import { publicScriptInstead } from './public-script';

const BUILT = `<!doctype html>
<html lang="es">
  <head>
    <title>Comando</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/jsx-runtime-abc.js">
    <link rel="modulepreload" crossorigin href="/assets/api-client-abc.js">
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  </head>
  <body>
    <div id="root"><main>La agenda</main></div>
  </body>
</html>`;

describe('publicScriptInstead', () => {
  it("takes the app's code out of the head and puts the page's own script last, with the app's addresses", () => {
    const html = publicScriptInstead(BUILT, '/assets/pagina-publica-abc.js');
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).not.toContain('<script type="module" crossorigin src="/assets/index-abc.js">');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-abc.css">');
    expect(html).toContain(
      '<div id="root"><main>La agenda</main></div>\n  <script type="module" src="/assets/pagina-publica-abc.js" data-app-module="/assets/index-abc.js" data-app-chunks="/assets/jsx-runtime-abc.js /assets/api-client-abc.js"></script>\n</body>',
    );
  });

  it('leaves a page without a module script as it is', () => {
    const page = '<html><body><div id="root"></div></body></html>';
    expect(publicScriptInstead(page, '/assets/pagina-publica-abc.js')).toBe(page);
  });
});
