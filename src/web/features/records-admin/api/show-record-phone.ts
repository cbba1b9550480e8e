import { useMutation } from '@tanstack/react-query';
import type { RecordPhone } from '#shared/features/records-admin/records-admin';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';

export const showRecordPhone = (id: number) =>
  apiFetch<RecordPhone>(`/api/admin/records/${id}/phone`, { method: 'POST' });

/** 'Mostrar': one record's whole phone (the list shows it masked); the server audits the look. */
export const useShowRecordPhone = (settings: MutationSettings = {}) =>
  useMutation({ ...settings, mutationFn: showRecordPhone });
