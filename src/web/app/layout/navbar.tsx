import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { paths } from '../../config/paths';
import { useIsMobile, useIsScrolled } from '../../lib/use-window-flags';
import { LoginIcon, MenuIcon } from './icons';
import type { MenuEntry } from './menu-entries';

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
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 font-medium transition-colors hover:bg-brand-light hover:text-brand focus-visible:outline-2 focus-visible:outline-brand ${
    isActive ? 'text-brand' : 'text-stone-700'
  }`;

export function Navbar({ brand, entries, showLogin: loginWanted, onLogout }: NavbarProps) {
  const isMobile = useIsMobile();
  const scrolled = useIsScrolled();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  // Staff menus hide the link to the page being shown; the login link is not offered on /login itself.
  const visible = entries.filter((e) => e.path !== location.pathname);
  const showLogin = loginWanted && location.pathname !== paths.login;

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing on every navigation is the point
  useEffect(() => {
    setOpen(false);
  }, [location.pathname]);

  // On phones, fetch the menu's code once the page has settled, so the first tap opens it at once.
  useEffect(() => {
    if (!isMobile) return;
    const timer = setTimeout(() => void loadMobileMenu(), 1_500);
    return () => clearTimeout(timer);
  }, [isMobile]);

  return (
    <header
      data-scrolled={scrolled ? 'true' : 'false'}
      className={`sticky top-0 z-40 w-full transition-shadow ${
        scrolled ? 'bg-white/95 shadow-md backdrop-blur' : 'bg-white'
      } border-b border-stone-200`}
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
        {isMobile ? (
          <div className="flex items-center gap-1">
            {showLogin && <LoginLink />}
            <MenuButton open={open} onOpen={() => setOpen(true)} />
          </div>
        ) : (
          <div className="flex items-center gap-1">
            <ul className="flex items-center gap-1">
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
                className="ml-2 rounded-md border border-brand px-3 py-2 font-semibold text-brand hover:bg-brand hover:text-white focus-visible:outline-2 focus-visible:outline-brand"
              >
                Cerrar sesión
              </button>
            )}
            {showLogin && <LoginLink />}
            {/* The spec's menu icon is on every screen: here it opens the same slide-over menu. */}
            <MenuButton open={open} onOpen={() => setOpen(true)} />
          </div>
        )}
      </nav>
      {open && (
        <Suspense fallback={null}>
          <MobileMenu
            open={open}
            onClose={() => setOpen(false)}
            entries={visible}
            onLogout={onLogout}
            showLogin={showLogin}
          />
        </Suspense>
      )}
    </header>
  );
}

function MenuButton({ open, onOpen }: { open: boolean; onOpen: () => void }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      className="rounded-md p-2 text-stone-700 hover:bg-brand-light hover:text-brand focus-visible:outline-2 focus-visible:outline-brand"
      aria-label="Abrir menú"
      aria-haspopup="dialog"
      aria-expanded={open}
    >
      <MenuIcon />
    </button>
  );
}

function LoginLink() {
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
