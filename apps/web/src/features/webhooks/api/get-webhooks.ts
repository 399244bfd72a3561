import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PageOf, Webhook, WebhookDelivery } from '@youju/contract';
import { apiGet } from '../../../lib/http';

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (id: number, page: number) => [...webhookKeys.all, 'deliveries', id, page] as const,
  telegram: () => [...webhookKeys.all, 'telegram'] as const,
};

/** GET /api/user/getWebhooks: the caller's own webhooks (never their secrets). */
export function getWebhooks(): Promise<Webhook[]> {
  return apiGet<Webhook[]>('/user/getWebhooks');
}

export function getWebhooksQueryOptions() {
  return queryOptions({ queryKey: webhookKeys.list(), queryFn: getWebhooks });
}

export function useWebhooks() {
  return useQuery(getWebhooksQueryOptions());
}

/** GET /api/user/getWebhookDeliveries?id=: one webhook's delivery log, newest first. */
export function getWebhookDeliveries(id: number, page: number): Promise<PageOf<WebhookDelivery>> {
  return apiGet<PageOf<WebhookDelivery>>('/user/getWebhookDeliveries', { id, page, pageSize: 10 });
}

export function useWebhookDeliveries(id: number, page: number) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id, page),
    queryFn: () => getWebhookDeliveries(id, page),
    // pending deliveries change on their own: look again while the log is open
    refetchInterval: 5_000,
  });
}
