import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionItem } from '@youju/contract';
import { apiGet, apiPost } from '../../../lib/http';

export const securityKeys = {
  all: ['security'] as const,
  sessions: () => [...securityKeys.all, 'sessions'] as const,
  history: (page: number, pageSize: number) => [...securityKeys.all, 'history', page, pageSize] as const,
};

/** GET /api/user/getSessions: the caller's active sessions, the current one flagged. */
export function getSessions(): Promise<SessionItem[]> {
  return apiGet<SessionItem[]>('/user/getSessions');
}

export function getSessionsQueryOptions() {
  return queryOptions({ queryKey: securityKeys.sessions(), queryFn: getSessions });
}

export function useSessions() {
  return useQuery(getSessionsQueryOptions());
}

/** POST /api/user/revokeSession: ends one of the caller's other sessions. */
export function revokeSession(id: number): Promise<void> {
  return apiPost<void>('/user/revokeSession', { id });
}

/** POST /api/user/revokeOtherSessions: ends every session but this one. */
export function revokeOtherSessions(): Promise<{ revoked: number }> {
  return apiPost<{ revoked: number }>('/user/revokeOtherSessions');
}

export function useRevokeSession(onSuccess?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: securityKeys.sessions() });
      onSuccess?.();
    },
  });
}

export function useRevokeOtherSessions(onSuccess?: (revoked: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherSessions,
    onSuccess: async ({ revoked }) => {
      await queryClient.invalidateQueries({ queryKey: securityKeys.sessions() });
      onSuccess?.(revoked);
    },
  });
}
