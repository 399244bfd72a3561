import { useQueryClient } from '@tanstack/react-query';
import type { OrderNotice } from '@youju/contract';
import { useEffect } from 'react';
import { showInfoNotification } from '../../../lib/feedback';
import { openEventStream } from '../../../lib/http';
import { t } from '../../../lib/i18n';
import { orderKeys } from './get-orders';

/** An `order` event's data, or null when it does not parse. */
export function parseOrderNotice(data: string): OrderNotice | null {
  try {
    const notice = JSON.parse(data) as OrderNotice;
    return notice && typeof notice.orderNo === 'string' ? notice : null;
  } catch {
    return null;
  }
}

/**
 * Tells the owner of a domain of a new store order while any /user screen is open: the server sends
 * `order` on GET /api/user/events only to the domain's owner. Shows a notification and refreshes the
 * order lists. `enabled` is false for mailbox sessions (they own no domain).
 */
export function useOrderNotices(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    return openEventStream({
      path: '/user/events',
      events: {
        order: (data) => {
          void queryClient.invalidateQueries({ queryKey: orderKeys.all });
          const notice = parseOrderNotice(data);
          if (!notice) return;
          showInfoNotification(
            t('新订单'),
            t('{address}，¥{amount}，买家 {phone}（订单 {orderNo}）', {
              address: notice.address,
              amount: (notice.amount / 100).toFixed(2),
              phone: notice.phone,
              orderNo: notice.orderNo,
            }),

            `order-${notice.orderNo}`,
          );
        },
      },
      onReconnect: () => {
        void queryClient.invalidateQueries({ queryKey: orderKeys.all });
      },
    });
  }, [enabled, queryClient]);
}
