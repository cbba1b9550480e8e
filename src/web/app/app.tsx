import type { QueryClient } from '@tanstack/react-query';
import { type ComponentType, type ReactNode, useEffect } from 'react';
import { BrowserRouter } from 'react-router';
import { AppProvider } from '#web/platform/provider';
import { AppRoutes } from './router';

/** The whole app: providers and routes, in the browser's router or (server rendering) a fixed one. */
export function App({
  queryClient,
  Router = BrowserRouter,
}: {
  queryClient?: QueryClient;
  Router?: ComponentType<{ children: ReactNode }>;
}) {
  // The page is the app's from here on: a rendered public page is on screen before its code arrives
  // (after the first paint), and until this point its buttons do nothing. Tests wait for it.
  useEffect(() => {
    document.documentElement.dataset.app = 'ready';
  }, []);
  return (
    <AppProvider queryClient={queryClient}>
      <Router>
        <AppRoutes />
      </Router>
    </AppProvider>
  );
}
