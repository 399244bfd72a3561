import { displayDomainName } from '../domains/index.js';
import { epayPayUrl, epaySignatureValid, yuanToFen } from './epay.js';
import type { PaymentProvider } from './payment-provider.js';

const typeNames: Record<string, string> = { alipay: '支付宝', wxpay: '微信支付', qqpay: 'QQ 钱包' };

/** Pay methods of the EPay gateway are its `type` values, offered to buyers as `epay:<type>`. */
export const EPAY_PREFIX = 'epay:';

/**
 * An EPay-style gateway (see epay.ts for the protocol). The gateway itself runs elsewhere; the tests
 * play its part by signing notices with the configured key.
 */
export const epayProvider: PaymentProvider = {
  id: 'epay',
  methods(settings) {
    if (!settings.epayEnabled || !settings.epayGatewayUrl || !settings.epayMerchantId || !settings.epayKey)
      return [];
    return settings.epayTypes.map((type) => ({ id: `${EPAY_PREFIX}${type}`, name: typeNames[type] ?? type }));
  },
  start(order, settings, context) {
    const [localPart, domain] = [order.local_part, order.address.slice(order.address.indexOf('@') + 1)];
    return {
      payUrl: epayPayUrl({
        gatewayUrl: settings.epayGatewayUrl,
        merchantId: settings.epayMerchantId,
        key: settings.epayKey,
        type: order.pay_method.slice(EPAY_PREFIX.length),
        orderNo: order.order_no,
        amountFen: order.amount,
        name: `邮箱 ${localPart}@${displayDomainName(domain)}`,
        notifyUrl: `${context.siteUrl}/api/pay/notify/epay`,
        returnUrl: `${context.siteUrl}/store?orderNo=${encodeURIComponent(order.order_no)}`,
      }),
    };
  },
  async verifyNotice(params, settings, findOrder) {
    if (!settings.epayKey || !settings.epayMerchantId) return { ok: false, reason: '易支付未配置' };
    if (!epaySignatureValid(params, settings.epayKey)) return { ok: false, reason: '签名不正确' };
    if (params.pid !== settings.epayMerchantId) return { ok: false, reason: '商户号不符' };
    if (params.trade_status !== 'TRADE_SUCCESS')
      return { ok: false, reason: `交易状态为 ${params.trade_status ?? '空'}` };
    const orderNo = params.out_trade_no ?? '';
    const order = await findOrder(orderNo);
    if (!order) return { ok: false, reason: `订单 ${orderNo} 不存在` };
    if (!order.pay_method.startsWith(EPAY_PREFIX)) return { ok: false, reason: '该订单不是易支付订单' };
    const paid = yuanToFen(params.money ?? '');
    if (paid !== order.amount)
      return { ok: false, reason: `金额不符：通知 ${params.money}，订单 ${order.amount} 分` };
    return { ok: true, notice: { orderNo, tradeNo: params.trade_no || null } };
  },
};
