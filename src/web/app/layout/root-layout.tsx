import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { Spinner } from '../../components/ui/page';
import { useSiteInfo } from './get-site-info';
import { PUBLIC_MENU } from './menu-entries';
import { Navbar } from './navbar';

/** Toasts never outlive the page they were about. */
function DismissToastsOnRouteChange() {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: dismissing on every route change is the point
  useEffect(() => {
    toast.dismiss();
  }, [pathname]);
  return null;
}

export function RootLayout() {
  const site = useSiteInfo();
  return (
    <div className="flex min-h-dvh flex-col">
      <DismissToastsOnRouteChange />
      <Navbar brand={site.data?.campaignName ?? 'Comando'} entries={PUBLIC_MENU} showLogin />
      <Suspense fallback={<Spinner />}>
        <Outlet />
      </Suspense>
    </div>
  );
}
