import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ToastContainer } from 'react-toastify/unstyled';
import { TOAST_AUTO_CLOSE_MS } from '#shared/platform/constants';
import { useIsMobile } from '#web/platform/lib/use-window-flags';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: true, staleTime: 30_000 },
    },
  });
}

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  // A phone's screen holds two toasts at most; the rest wait their turn (item states live on the cards).
  const isMobile = useIsMobile();
  return (
    <QueryClientProvider client={client}>
      {children}
      <ToastContainer
        position="top-right"
        autoClose={TOAST_AUTO_CLOSE_MS}
        theme="light"
        newestOnTop
        closeOnClick
        limit={isMobile ? 2 : undefined}
      />
    </QueryClientProvider>
  );
}
