import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The EPay ("易支付") protocol most Chinese aggregated payment gateways speak:
 *
 * - sign = lower-case hex MD5 of the parameters, without `sign`, `sign_type` and empty values,
 *   sorted by name (ASCII), joined as `k=v&k=v`, with the merchant key appended directly;
 *   `sign_type=MD5` travels beside it.
 * - The buyer is redirected to the gateway's submit URL with pid, type, out_trade_no, notify_url,
 *   return_url, name, money (yuan, two decimals) and the signature.
 * - The gateway then calls notify_url (GET or POST form) with pid, trade_no, out_trade_no, type,
 *   name, money, trade_status and the signature, and retries until the answer is `success`.
 */

export function epaySign(params: Record<string, string | undefined>, key: string): string {
  const text = Object.keys(params)
    .filter(
      (name) => name !== 'sign' && name !== 'sign_type' && params[name] !== undefined && params[name] !== '',
    )
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
  return createHash('md5')
    .update(text + key, 'utf8')
    .digest('hex');
}

export function epaySignatureValid(params: Record<string, string | undefined>, key: string): boolean {
  const given = Buffer.from(String(params.sign ?? '').toLowerCase());
  const expected = Buffer.from(epaySign(params, key));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Fen (integer) to the yuan text of `money`: 990 → "9.90". */
export function fenToYuan(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** The yuan text of `money` to fen, exactly (no floating point); null when it is not an amount. */
export function yuanToFen(text: string): number | null {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

export interface EpayRedirect {
  gatewayUrl: string;
  merchantId: string;
  key: string;
  type: string;
  orderNo: string;
  amountFen: number;
  name: string;
  notifyUrl: string;
  returnUrl: string;
}

/** The signed URL the buyer's browser goes to. */
export function epayPayUrl(input: EpayRedirect): string {
  const params: Record<string, string> = {
    pid: input.merchantId,
    type: input.type,
    out_trade_no: input.orderNo,
    notify_url: input.notifyUrl,
    return_url: input.returnUrl,
    name: input.name,
    money: fenToYuan(input.amountFen),
  };
  const query = new URLSearchParams({ ...params, sign: epaySign(params, input.key), sign_type: 'MD5' });
  return `${input.gatewayUrl}${input.gatewayUrl.includes('?') ? '&' : '?'}${query.toString()}`;
}
