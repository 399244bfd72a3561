import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordBody } from '@youju/contract';
import { apiPost } from '../../../lib/http';

/** POST /api/user/changePassword: every session ends; the answer carries a fresh token for this one. */
export function changePassword(body: ChangePasswordBody): Promise<{ token: string }> {
  return apiPost<{ token: string }>('/user/changePassword', body);
}

export function useChangePassword(onSuccess: (data: { token: string }) => void) {
  return useMutation({ mutationFn: changePassword, onSuccess });
}
