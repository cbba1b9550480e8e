import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { ToastContainer, toast } from 'react-toastify/unstyled';
import { TOAST_AUTO_CLOSE_MS } from '#shared/platform/constants';
import { toastMutationError } from '#web/platform/lib/mutation-errors';
import { MOBILE_QUERY } from '#web/platform/lib/use-window-flags';
import { createToastLimit, PHONE_TOAST_LIMIT } from '#web/platform/ui/toast-limit';

/** A failed change says why in a toast, unless its screen shows the error itself (mutation-errors.ts). */
const mutationCache = () =>
  new MutationCache({ onError: (error, _variables, _context, mutation) => toastMutationError(error, mutation) });

export function createQueryClient() {
  return new QueryClient({
    mutationCache: mutationCache(),
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: true, staleTime: 30_000 },
    },
  });
}

/** The client of the web tests: the app's, without retries, so that a failure shows at once. */
export function createTestQueryClient() {
  return new QueryClient({ mutationCache: mutationCache(), defaultOptions: { queries: { retry: false } } });
}

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  // On phones, at most two toasts at once: a third closes the oldest (docs/decisions/026).
  useEffect(
    () =>
      toast.onChange(
        createToastLimit({
          limit: PHONE_TOAST_LIMIT,
          applies: () => window.matchMedia(MOBILE_QUERY).matches,
          dismiss: (id) => toast.dismiss(id),
        }),
      ),
    [],
  );
  return (
    <QueryClientProvider client={client}>
      {children}
      <ToastContainer position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} theme="light" newestOnTop closeOnClick />
    </QueryClientProvider>
  );
}
