import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType, ReactNode } from 'react';
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
  return (
    <AppProvider queryClient={queryClient}>
      <Router>
        <AppRoutes />
      </Router>
    </AppProvider>
  );
}
