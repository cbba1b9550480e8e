import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { NavLink } from 'react-router';
import type { MenuEntry } from '#shared/platform/session';
import { paths } from '#web/platform/paths';
import { CloseIcon } from './icons';

export interface MobileMenuProps {
  open: boolean;
  onClose: () => void;
  entries: MenuEntry[];
  /** The entry of the page being shown: named, not linked (the spec hides the link to the current page). */
  current?: MenuEntry | undefined;
  /** The link to Envíos, the items this phone still has to send. */
  showOutbox?: boolean;
  showLogin: boolean;
  onLogout?: (() => void) | undefined;
  onLogoutEverywhere?: (() => void) | undefined;
  /** The e-mail of whoever is signed in. */
  signedInAs?: string | undefined;
}

/** The spec's slide-over menu for phones: focus stays inside, Escape and navigation close it. */
export default function MobileMenu({
  open,
  onClose,
  entries,
  current,
  showOutbox = false,
  showLogin,
  onLogout,
  onLogoutEverywhere,
  signedInAs,
}: MobileMenuProps) {
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-black/40" aria-hidden="true" />
      <div className="fixed inset-0 flex justify-end">
        <DialogPanel className="flex h-full w-80 max-w-[85vw] flex-col bg-white shadow-xl" data-testid="mobile-menu">
          <div className="flex h-16 items-center justify-between border-b border-stone-200 px-4">
            <DialogTitle className="text-lg font-bold text-brand">Menú</DialogTitle>
            <button
              type="button"
              onClick={onClose}
              className="rounded-md p-2 text-stone-700 hover:bg-brand-light hover:text-brand focus-visible:outline-2 focus-visible:outline-brand"
              aria-label="Cerrar menú"
            >
              <CloseIcon />
            </button>
          </div>
          <nav aria-label="Menú" className="flex-1 overflow-y-auto p-2">
            {current && (
              <p className="px-4 pt-2 pb-3 text-stone-700" data-testid="menu-aqui">
                Estás en <strong className="text-stone-900">{current.title}</strong>
              </p>
            )}
            <ul className="flex flex-col gap-1">
              {entries.map((entry) => (
                <li key={entry.path}>
                  <NavLink
                    to={entry.path}
                    end
                    onClick={onClose}
                    className="block rounded-md px-4 py-3 text-lg font-medium text-stone-800 hover:bg-brand-light hover:text-brand focus-visible:outline-2 focus-visible:outline-brand"
                  >
                    {entry.title}
                  </NavLink>
                </li>
              ))}
              {showOutbox && (
                <li>
                  <NavLink
                    to={paths.outbox}
                    onClick={onClose}
                    className="block rounded-md px-4 py-3 text-lg font-medium text-stone-800 hover:bg-brand-light hover:text-brand focus-visible:outline-2 focus-visible:outline-brand"
                  >
                    Envíos
                  </NavLink>
                </li>
              )}
              {showLogin && (
                <li>
                  <NavLink
                    to={paths.login}
                    onClick={onClose}
                    className="block rounded-md px-4 py-3 text-lg font-medium text-stone-800 hover:bg-brand-light hover:text-brand focus-visible:outline-2 focus-visible:outline-brand"
                  >
                    Iniciar sesión
                  </NavLink>
                </li>
              )}
            </ul>
          </nav>
          {(signedInAs || onLogout) && (
            <div className="border-t border-stone-200 p-4">
              {signedInAs && (
                <p className="mb-3 text-stone-700" data-testid="sesion-de">
                  Sesión iniciada como <strong className="break-all text-stone-900">{signedInAs}</strong>
                </p>
              )}
              {onLogout && (
                <button
                  type="button"
                  onClick={() => {
                    onClose();
                    onLogout();
                  }}
                  className="w-full rounded-lg bg-brand px-4 py-3 font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
                >
                  Cerrar sesión
                </button>
              )}
              {onLogoutEverywhere && (
                <button
                  type="button"
                  onClick={() => {
                    onClose();
                    onLogoutEverywhere();
                  }}
                  className="mt-3 w-full rounded-lg border border-brand px-4 py-3 font-semibold text-brand hover:bg-brand-light focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
                >
                  Cerrar sesión en todos los dispositivos
                </button>
              )}
            </div>
          )}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
