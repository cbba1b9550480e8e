import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginBody, Session } from '../../../../shared/auth';
import { apiFetch } from '../../../lib/api-client';
import { SESSION_QUERY_KEY } from './get-session';

export const login = (body: LoginBody) =>
  apiFetch<Session>('/api/auth/login', { method: 'POST', body: JSON.stringify(body) });

/** Signs in; on success the session the server answered becomes the app's session at once. */
export const useLogin = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (session) => queryClient.setQueryData(SESSION_QUERY_KEY, session),
  });
};
