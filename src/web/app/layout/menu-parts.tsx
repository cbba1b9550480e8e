import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import type { MenuEntry } from '#shared/platform/session';
import { paths } from '#web/platform/paths';
import { CloseIcon } from './icons';

// The slide-over menu's look, shared by the app's dialog (mobile-menu.tsx) and the public pages' copy of
// it (app/public/public-templates.tsx), which their own script opens without the app.
export const MENU_BACKDROP_CLASS = 'fixed inset-0 bg-black/40';
export const MENU_PANEL_CLASS = 'flex h-full w-80 max-w-[85vw] flex-col bg-white shadow-xl';
export const MENU_TITLE_CLASS = 'text-lg font-bold text-brand';
const LINK_CLASS =
  'block rounded-md px-4 py-3 text-lg font-medium text-stone-800 hover:bg-brand-light hover:text-brand focus-visible:outline-2 focus-visible:outline-brand';

/** The menu's top bar: its title and the close button. */
export function MenuHeader({ title, onClose }: { title: ReactNode; onClose?: () => void }) {
  return (
    <div className="flex h-16 items-center justify-between border-b border-stone-200 px-4">
      {title}
      <button
        type="button"
        onClick={onClose}
        // On a public page without the app, its script (a11y-dialog) closes the menu from this attribute.
        data-a11y-dialog-hide=""
        className="rounded-md p-2 text-stone-700 hover:bg-brand-light hover:text-brand focus-visible:outline-2 focus-visible:outline-brand"
        aria-label="Cerrar menú"
      >
        <CloseIcon />
      </button>
    </div>
  );
}

/**
 * The menu's links: where the person is (named, not linked), the entries, Envíos when the phone has
 * items of its own, then 'Iniciar sesión' when it is offered.
 */
export function MenuLinks({
  entries,
  current,
  showOutbox = false,
  showLogin,
  onNavigate,
}: {
  entries: MenuEntry[];
  current?: MenuEntry | undefined;
  showOutbox?: boolean;
  showLogin: boolean;
  onNavigate?: () => void;
}) {
  return (
    <nav aria-label="Menú" className="flex-1 overflow-y-auto p-2">
      {current && (
        <p className="px-4 pt-2 pb-3 text-stone-700" data-testid="menu-aqui">
          Estás en <strong className="text-stone-900">{current.title}</strong>
        </p>
      )}
      <ul className="flex flex-col gap-1">
        {entries.map((entry) => (
          <li key={entry.path}>
            <NavLink to={entry.path} end onClick={onNavigate} className={LINK_CLASS}>
              {entry.title}
            </NavLink>
          </li>
        ))}
        {showOutbox && (
          <li>
            <NavLink to={paths.outbox} onClick={onNavigate} className={LINK_CLASS}>
              Envíos
            </NavLink>
          </li>
        )}
        {showOutbox && (
          <li>
            <NavLink to={paths.account} onClick={onNavigate} className={LINK_CLASS}>
              Tu cuenta
            </NavLink>
          </li>
        )}
        {showLogin && (
          <li>
            <NavLink to={paths.login} onClick={onNavigate} className={LINK_CLASS}>
              Iniciar sesión
            </NavLink>
          </li>
        )}
      </ul>
    </nav>
  );
}
