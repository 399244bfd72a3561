import type { OrderStatus } from '@youju/contract';
import { t } from '../../../lib/i18n';

/** Each status's tag, in the current language (built when called, never at import). */
export const orderStatusTags = (): Record<OrderStatus, { color: string; label: string }> => ({
  pending: { color: 'processing', label: t('待付款') },
  paid: { color: 'warning', label: t('已付款') },
  delivered: { color: 'success', label: t('已开通') },
  cancelled: { color: 'default', label: t('已取消') },
  expired: { color: 'default', label: t('已过期') },
});

function payTypeName(type: string): string | undefined {
  switch (type) {
    case 'alipay':
      return t('支付宝');
    case 'wxpay':
      return t('微信支付');
    case 'qqpay':
      return t('QQ 钱包');
    default:
      return undefined;
  }
}

export function payMethodLabel(method: string): string {
  if (method === 'manual') return t('人工确认');
  if (method.startsWith('epay:')) return payTypeName(method.slice(5)) ?? t('在线支付');
  return t('其他');
}

export function yuan(fen: number): string {
  return t('{amount} 元', { amount: (fen / 100).toFixed(2) });
}
