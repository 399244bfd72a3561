import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatedWebhook, EditWebhook, NewWebhook, Webhook, WebhookTestResult } from '@youju/contract';
import { apiPost } from '../../../lib/http';
import { webhookKeys } from './get-webhooks';

/** POST /api/user/addWebhook: the answer carries the secret, the only time it is shown. */
export function addWebhook(body: NewWebhook): Promise<CreatedWebhook> {
  return apiPost<CreatedWebhook>('/user/addWebhook', body);
}

/** The dialog shows the server's reason itself, so the failure stays silent here. */
export function useAddWebhook(onSuccess?: (webhook: CreatedWebhook) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addWebhook,
    meta: { silent: true },
    onSuccess: async (webhook) => {
      await queryClient.invalidateQueries({ queryKey: webhookKeys.all });
      onSuccess?.(webhook);
    },
  });
}

/** POST /api/user/editWebhook */
export function editWebhook(body: EditWebhook): Promise<Webhook> {
  return apiPost<Webhook>('/user/editWebhook', body);
}

export function useEditWebhook(onSuccess?: (webhook: Webhook) => void, options: { silent?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editWebhook,
    meta: { silent: options.silent ?? false },
    onSuccess: async (webhook) => {
      await queryClient.invalidateQueries({ queryKey: webhookKeys.all });
      onSuccess?.(webhook);
    },
  });
}

/** POST /api/user/delWebhook */
export function deleteWebhook(id: number): Promise<unknown> {
  return apiPost('/user/delWebhook', { id });
}

export function useDeleteWebhook(onSuccess?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhookKeys.all });
      onSuccess?.();
    },
  });
}

/** POST /api/user/testWebhook: a signed test event, sent now. */
export function testWebhook(id: number): Promise<WebhookTestResult> {
  return apiPost<WebhookTestResult>('/user/testWebhook', { id });
}

export function useTestWebhook(onSuccess?: (result: WebhookTestResult) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: testWebhook,
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: webhookKeys.all });
      onSuccess?.(result);
    },
  });
}
