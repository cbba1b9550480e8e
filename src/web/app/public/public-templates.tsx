import type { Nota } from '#shared/features/notas/notas';
import type { PublicPagePath } from '#shared/platform/public-pages';
import { NotaCard } from '#web/features/notas/components/nota-card';
import { PUBLIC_MENU } from '../layout/menu-entries';
import { MENU_BACKDROP_CLASS, MENU_PANEL_CLASS, MENU_TITLE_CLASS, MenuHeader, MenuLinks } from '../layout/menu-parts';
import { LoginLink } from '../layout/navbar';
import { PUBLIC_MENU_ID, PUBLIC_MENU_TITLE_ID, PUBLIC_TEMPLATES } from './template-ids';

// A nota with every part present (the picture too): the script fills it in, or takes the picture out.
const NOTA_PATTERN: Nota = {
  id: 0,
  title: '',
  contentHtml: '',
  publishedAt: '1970-01-01T00:00:00.000Z',
  imageUrl: '/favicon.svg',
  imageAlt: '',
};

/**
 * The markup a public page's own script needs besides the content, as <template> elements (inert until
 * cloned), made by the same components as the app's: the slide-over menu as a visitor sees it on this
 * path (an a11y-dialog container instead of Headless UI's, with the same look), the login icon, and on
 * /notas one nota. Rendered on the server only (they are outside the app's root).
 */
export function PublicTemplates({ path }: { path: PublicPagePath }) {
  const entries = PUBLIC_MENU.filter((e) => e.path !== path);
  return (
    <>
      <template id={PUBLIC_TEMPLATES.menu}>
        <div id={PUBLIC_MENU_ID} role="dialog" aria-labelledby={PUBLIC_MENU_TITLE_ID} className="fixed inset-0 z-50">
          <div className={MENU_BACKDROP_CLASS} data-a11y-dialog-hide="" aria-hidden="true" />
          <div className="pointer-events-none fixed inset-0 flex justify-end">
            <div className={`pointer-events-auto ${MENU_PANEL_CLASS}`} data-testid="mobile-menu">
              <MenuHeader
                title={
                  <h2 id={PUBLIC_MENU_TITLE_ID} className={MENU_TITLE_CLASS}>
                    Menú
                  </h2>
                }
              />
              <MenuLinks entries={entries} showLogin />
            </div>
          </div>
        </div>
      </template>
      <template id={PUBLIC_TEMPLATES.login}>
        <LoginLink />
      </template>
      {path === '/notas' && (
        <template id={PUBLIC_TEMPLATES.nota}>
          <NotaCard nota={NOTA_PATTERN} />
        </template>
      )}
    </>
  );
}
