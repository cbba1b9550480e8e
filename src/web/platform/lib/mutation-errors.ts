import type { Mutation } from '@tanstack/react-query';
import { toast } from 'react-toastify/unstyled';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** false: the caller shows the error itself (under a field, in its dialog): no toast. */
      errorToast?: false;
    };
  }
}

/** What a screen may tell a mutation's hook: the hooks that take it spread it into `useMutation`. */
export interface MutationSettings {
  meta?: { errorToast?: false };
}

/** For a screen that shows a failed request's message itself (in its form or dialog). */
export const showsOwnError: MutationSettings = { meta: { errorToast: false } };

/** The app's error toast: one per message while it is on screen (a second tap adds no second toast). */
export const showErrorToast = (message: string): void => {
  toast.error(message, { toastId: message });
};

/**
 * The default for every failed mutation (the query client's MutationCache): its Spanish message in a
 * toast, unless the mutation was told its screen shows the error (`showsOwnError`).
 */
export function toastMutationError(error: Error, mutation: Pick<Mutation, 'meta'>): void {
  if (mutation.meta?.errorToast === false) return;
  showErrorToast(error.message);
}
