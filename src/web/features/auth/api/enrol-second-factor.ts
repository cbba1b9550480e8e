import { useMutation } from '@tanstack/react-query';
import type { SecondFactorEnrolment } from '#shared/features/auth/second-factor';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';

export const enrolSecondFactor = () =>
  apiFetch<SecondFactorEnrolment>('/api/auth/second-factor/enrol', { method: 'POST' });

/** A new secret and its QR code, to scan with an authenticator app. */
export const useEnrolSecondFactor = (settings: MutationSettings = {}) =>
  useMutation({ ...settings, mutationFn: enrolSecondFactor });
