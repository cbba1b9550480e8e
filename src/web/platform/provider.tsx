import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ToastContainer } from 'react-toastify/unstyled';
import { TOAST_AUTO_CLOSE_MS } from '#shared/platform/constants';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: true, staleTime: 30_000 },
    },
  });
}

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      {children}
      <ToastContainer position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} theme="light" newestOnTop closeOnClick />
    </QueryClientProvider>
  );
}
