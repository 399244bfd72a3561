import type { OrderStatus } from '@youju/contract';

export const orderStatusTags: Record<OrderStatus, { color: string; label: string }> = {
  pending: { color: 'processing', label: '待付款' },
  paid: { color: 'warning', label: '已付款' },
  delivered: { color: 'success', label: '已开通' },
  cancelled: { color: 'default', label: '已取消' },
  expired: { color: 'default', label: '已过期' },
};

const payTypeNames: Record<string, string> = { alipay: '支付宝', wxpay: '微信支付', qqpay: 'QQ 钱包' };

export function payMethodLabel(method: string): string {
  if (method === 'manual') return '人工确认';
  if (method.startsWith('epay:')) return payTypeNames[method.slice(5)] ?? '在线支付';
  return '其他';
}

export function yuan(fen: number): string {
  return `${(fen / 100).toFixed(2)} 元`;
}
