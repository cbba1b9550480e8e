import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { MenuEntry } from '#shared/platform/session';
import { MENU_BACKDROP_CLASS, MENU_PANEL_CLASS, MENU_TITLE_CLASS, MenuHeader, MenuLinks } from './menu-parts';

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
      <div className={MENU_BACKDROP_CLASS} aria-hidden="true" />
      <div className="fixed inset-0 flex justify-end">
        <DialogPanel className={MENU_PANEL_CLASS} data-testid="mobile-menu">
          <MenuHeader title={<DialogTitle className={MENU_TITLE_CLASS}>Menú</DialogTitle>} onClose={onClose} />
          <MenuLinks
            entries={entries}
            current={current}
            showOutbox={showOutbox}
            showLogin={showLogin}
            onNavigate={onClose}
          />
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
