/**
 * The <template> elements a public page rendered by the server carries beside its content, for its own
 * script to use without the app: markup made by the app's components, never written a second time.
 */
export const PUBLIC_TEMPLATES = {
  /** The slide-over menu, for this page (its own link left out, 'Iniciar sesión' in). */
  menu: 'plantilla-menu',
  /** The navbar's login icon link, shown once the session says nobody is signed in. */
  login: 'plantilla-acceso',
  /** One nota, for the ones 'Cargar más notas' brings. */
  nota: 'plantilla-nota',
} as const;

/** The id of the menu's dialog once open, and of its title. */
export const PUBLIC_MENU_ID = 'menu-publico';
export const PUBLIC_MENU_TITLE_ID = 'menu-publico-titulo';
