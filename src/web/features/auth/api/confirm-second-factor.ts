import { useMutation } from '@tanstack/react-query';
import type { RecoveryCodes, SecondFactorCodeBody } from '#shared/features/auth/second-factor';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';

export const confirmSecondFactor = (body: SecondFactorCodeBody) =>
  apiFetch<RecoveryCodes>('/api/auth/second-factor/confirm', { method: 'POST', body: JSON.stringify(body) });

/**
 * Confirms the scanned secret with one code; answers the ten recovery codes. The session is asked again
 * only once they have been read (the form does it), so the page does not move away from them.
 */
export const useConfirmSecondFactor = (settings: MutationSettings = {}) =>
  useMutation({ ...settings, mutationFn: confirmSecondFactor });
