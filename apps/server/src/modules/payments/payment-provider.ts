import type { PayMethod } from '@youju/contract';
import type { OrderRow } from '../../db/schema.js';
import type { StoredPaySettings } from './payment-settings.js';

/** What the buyer is told after ordering: where to pay, or what to do. */
export interface PaymentStart {
  payUrl?: string;
  instructions?: string;
}

/** A payment received, as a provider established it. */
export interface PaymentNotice {
  orderNo: string;
  /** the payment's number at the provider */
  tradeNo: string | null;
}

/** The outcome of an asynchronous notice: verified and of a known order, or refused (and why, for the log). */
export type NoticeCheck = { ok: true; notice: PaymentNotice } | { ok: false; reason: string };

/**
 * One way of taking payment. `manual` has no gateway (the domain owner or an administrator confirms
 * with confirmOrder); a gateway provider redirects the buyer and verifies the gateway's notices.
 */
export interface PaymentProvider {
  /** the path segment of /api/pay/notify/{id} */
  readonly id: string;
  /** the pay methods it offers now (empty when switched off or not configured) */
  methods(settings: StoredPaySettings): PayMethod[];
  start(order: OrderRow, settings: StoredPaySettings, context: { siteUrl: string }): PaymentStart;
  /**
   * Checks a notice's signature and content against the order it names. Nothing may change before
   * this says ok; the order's status update then makes a repeated notice harmless.
   */
  verifyNotice?(
    params: Record<string, string>,
    settings: StoredPaySettings,
    findOrder: (orderNo: string) => Promise<OrderRow | undefined>,
  ): Promise<NoticeCheck>;
}
