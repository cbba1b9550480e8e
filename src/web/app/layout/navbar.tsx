import { lazy, type ReactNode, type Ref, Suspense, useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import type { MenuEntry } from '#shared/platform/session';
import { MOBILE_QUERY, useIsScrolled } from '#web/platform/lib/use-window-flags';
import { paths } from '#web/platform/paths';
import { LoginIcon, MenuIcon } from './icons';

// The slide-over (and Headless UI with it) is only loaded on phones, when first needed.
const loadMobileMenu = () => import('./mobile-menu');
const MobileMenu = lazy(loadMobileMenu);

export interface NavbarProps {
  brand: string;
  entries: MenuEntry[];
  /** The login icon link of the spec (visitors and signed-in users without a department). */
  showLogin: boolean;
  /** Present when a staff member is signed in. */
  onLogout?: () => void;
  /** "Cerrar sesión en todos los dispositivos" (in the menu); present with `onLogout`. */
  onLogoutEverywhere?: (() => void) | undefined;
  /** Shown beside the menu button on every screen size (the count of items waiting on the phone). */
  status?: ReactNode;
  /** The e-mail of whoever is signed in, shown in the menu. */
  signedInAs?: string | undefined;
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 font-medium transition-colors hover:bg-brand-light hover:text-brand focus-visible:outline-2 focus-visible:outline-brand ${
    isActive ? 'text-brand' : 'text-stone-700'
  }`;

// Under the spec's 1100 px the links and the logout button live in the slide-over menu only. A media
// query decides, not JavaScript: the page rendered by the server is right at any width before it runs.
const WIDE_ONLY = 'hidden min-[1100px]:flex';

export function Navbar({
  brand,
  entries,
  showLogin: loginWanted,
  onLogout,
  onLogoutEverywhere,
  status,
  signedInAs,
}: NavbarProps) {
  const scrolled = useIsScrolled();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  // Staff menus hide the link to the page being shown; the login link is not offered on /login itself.
  const visible = entries.filter((e) => e.path !== location.pathname);
  // The menu still says where one is: a validator with one department would otherwise open an empty sheet.
  const current = entries.find((e) => e.path === location.pathname);
  const showLogin = loginWanted && location.pathname !== paths.login;

  const menuButton = useRef<HTMLButtonElement>(null);
  // The address the menu was opened on. A page that was still loading when the menu opened arrives
  // with the address already in the bar: that is not a navigation away from the menu.
  const openedOn = useRef<string | null>(null);
  const openMenu = () => {
    openedOn.current = window.location.pathname;
    setOpen(true);
  };
  // Escape or a tap outside: the focus goes back to the button that opened the menu (a link followed
  // moves on instead). Only once the dialog is gone: while it is open the rest of the page is inert.
  const focusButtonAfterClose = useRef(false);
  const closeMenu = () => {
    focusButtonAfterClose.current = true;
    setOpen(false);
  };
  useEffect(() => {
    if (open || !focusButtonAfterClose.current) return;
    focusButtonAfterClose.current = false;
    menuButton.current?.focus();
  }, [open]);

  // Following a link of the menu closes it.
  useEffect(() => {
    if (location.pathname !== openedOn.current) setOpen(false);
  }, [location.pathname]);

  // On phones, fetch the menu's code once the page has settled, so the first tap opens it at once.
  useEffect(() => {
    if (!window.matchMedia(MOBILE_QUERY).matches) return;
    const timer = setTimeout(() => void loadMobileMenu(), 1_500);
    return () => clearTimeout(timer);
  }, []);

  return (
    <header
      data-scrolled={scrolled ? 'true' : 'false'}
      // The style follows the attribute, so a public page's own script changes it without the app.
      className="sticky top-0 z-40 w-full print:hidden border-b border-stone-200 bg-white transition-shadow data-[scrolled=true]:bg-white/95 data-[scrolled=true]:shadow-md data-[scrolled=true]:backdrop-blur"
    >
      <a
        href="#contenido"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Saltar al contenido
      </a>
      <nav aria-label="Principal" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4">
        <Link to={paths.home} className="flex items-center gap-2 font-extrabold text-brand">
          <img src="/favicon.svg" alt="" width={28} height={28} className="h-7 w-7" />
          <span className="text-lg">{brand}</span>
        </Link>
        <div className="flex items-center gap-1">
          <ul className={`${WIDE_ONLY} items-center gap-1`}>
            {visible.map((entry) => (
              <li key={entry.path}>
                <NavLink to={entry.path} className={linkClass} end>
                  {entry.title}
                </NavLink>
              </li>
            ))}
          </ul>
          {onLogout && (
            <button
              type="button"
              onClick={onLogout}
              title={signedInAs ? `Sesión de ${signedInAs}` : undefined}
              className={`${WIDE_ONLY} ml-2 rounded-md border border-brand px-3 py-2 font-semibold text-brand hover:bg-brand hover:text-white focus-visible:outline-2 focus-visible:outline-brand`}
            >
              Cerrar sesión
            </button>
          )}
          {status}
          {showLogin && <LoginLink />}
          {/* The spec's menu icon is on every screen: on wide ones it opens the same slide-over menu. */}
          <MenuButton ref={menuButton} open={open} onOpen={openMenu} />
        </div>
      </nav>
      {open && (
        <Suspense fallback={null}>
          <MobileMenu
            open={open}
            onClose={closeMenu}
            entries={visible}
            current={current}
            // The phone's outbox, for whoever is signed in (items wait here after a sign-out too).
            showOutbox={onLogout !== undefined && location.pathname !== paths.outbox}
            onLogout={onLogout}
            onLogoutEverywhere={onLogoutEverywhere}
            showLogin={showLogin}
            signedInAs={signedInAs}
          />
        </Suspense>
      )}
    </header>
  );
}

function MenuButton({ ref, open, onOpen }: { ref: Ref<HTMLButtonElement>; open: boolean; onOpen: () => void }) {
  return (
    <button
      ref={ref}
      type="button"
      onClick={onOpen}
      data-action="open-menu"
      className="rounded-md p-2 text-stone-700 hover:bg-brand-light hover:text-brand focus-visible:outline-2 focus-visible:outline-brand"
      aria-label="Abrir menú"
      aria-haspopup="dialog"
      aria-expanded={open}
    >
      <MenuIcon />
    </button>
  );
}

/** The spec's login icon link (also written into the public pages for their own script to show). */
export function LoginLink() {
  return (
    <Link
      to={paths.login}
      className="rounded-md p-2 text-stone-700 hover:bg-brand-light hover:text-brand focus-visible:outline-2 focus-visible:outline-brand"
      aria-label="Iniciar sesión"
      title="Iniciar sesión"
    >
      <LoginIcon />
    </Link>
  );
}
