import { randomInt } from 'node:crypto';
import type {
  BuyEmailBody,
  BuyEmailData,
  CheckAddressData,
  Order,
  OrderNotice,
  OrderQuery,
  PageOf,
  PayMethod,
  PublicOrder,
} from '@youju/contract';
import type { Kysely, Transaction } from 'kysely';
import { findDomainById } from '../../db/repositories/domain-repo.js';
import {
  cancelOrderIfUnpaid,
  countOrders,
  countPendingOrdersOfPhone,
  expireOverdueOrders,
  findOrderByNo,
  getOrderByNo,
  insertOrder,
  listOrders,
  listOrdersOfPhone,
  markOrderDelivered,
  markOrderPaidIfPending,
  type OrderFilter,
  recordOrderFailure,
} from '../../db/repositories/order-repo.js';
import type { Database, OrderRow } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { pageOf } from '../../lib/paging.js';
import { hashPassword } from '../../lib/passwords.js';
import type { RateLimits } from '../../lib/rate-limiter.js';
import { toIso } from '../../lib/time.js';
import { createSignUpLimit } from '../auth/index.js';
import { displayDomainName, refuseReservedLocalPart } from '../domains/index.js';
import { addressTakenReason, insertOrderedAccount, remainingStock } from '../email-accounts/index.js';
import type { PaymentNotice, PaymentProvider, PaySettingsStore } from '../payments/index.js';
import { epayProvider, manualProvider } from '../payments/index.js';
import type { AuthContext, ClientInfo } from '../sessions/index.js';
import type { SettingsService } from '../settings/index.js';

const LOCAL_PART = /^[a-z0-9](?:[a-z0-9._+-]{0,62}[a-z0-9])?$/;
const PENDING_PER_PHONE = 3;
const LOOKUPS_WINDOW_MS = 10 * 60_000;
const LOOKUPS_PER_IP = 20;
const CHECKS_PER_IP_PER_MINUTE = 120;
const ORDER_NOT_FOUND = '订单不存在';

const providers: readonly PaymentProvider[] = [manualProvider, epayProvider];

/** Order numbers: the time to the second and 12 random digits (about 40 bits), 26 digits in all. */
function newOrderNo(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  let tail = '';
  for (let i = 0; i < 12; i++) tail += String(randomInt(10));
  return stamp + tail;
}

function orderView(row: OrderRow): Order {
  return {
    orderNo: row.order_no,
    domainId: row.domain_id,
    address: row.address,
    phone: row.phone,
    amount: row.amount,
    payMethod: row.pay_method,
    status: row.status,
    createdAt: toIso(row.created_at),
    paidAt: toIso(row.paid_at),
    deliveredAt: toIso(row.delivered_at),
    tradeNo: row.trade_no,
    failure: row.failure,
    expiresAt: toIso(row.expires_at),
  };
}

function publicOrderView(row: OrderRow): PublicOrder {
  return {
    orderNo: row.order_no,
    // The address is the buyer's only once it is really theirs.
    address: row.status === 'delivered' ? row.address : null,
    amount: row.amount,
    status: row.status,
    createdAt: toIso(row.created_at),
    paidAt: toIso(row.paid_at),
    domainName: displayDomainName(row.address.slice(row.address.indexOf('@') + 1)),
    payMethod: row.pay_method,
  };
}

/** `138****5678`: the buyer's phone as a notice shows it (the owner reads the full one in getOrders). */
export function maskPhone(phone: string): string {
  const value = phone.trim();
  if (value.length >= 11) return `${value.slice(0, 3)}****${value.slice(-4)}`;
  if (value.length >= 5) return `${value.slice(0, 1)}***${value.slice(-2)}`;
  return '****';
}

/** What the domain's owner is told of a new order: no password hash, no secret, the phone masked. */
export function orderNotice(row: OrderRow, domainName: string): OrderNotice {
  return {
    event: 'order.created',
    orderNo: row.order_no,
    domainId: row.domain_id,
    domainName: displayDomainName(domainName),
    address: row.address,
    amount: row.amount,
    payMethod: row.pay_method,
    phone: maskPhone(row.phone),
    status: row.status,
    createdAt: toIso(row.created_at),
  };
}

/**
 * How a new order reaches its domain's owner, wired by the composition root: `queue` runs inside the
 * transaction that stores the order (the owner's webhooks and Telegram, durably, in the same
 * commit); `announce` after the commit (the owner's live streams).
 */
export interface OrderNotices {
  queue(trx: Transaction<Database>, ownerId: number, notice: OrderNotice): Promise<void>;
  announce(ownerId: number, notice: OrderNotice): void;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Store orders: pending → paid → delivered, or cancelled / expired. An unpaid order holds its address
 * until it expires (lazily: every read and every new order first marks overdue ones expired). The
 * mailbox is created in the same transaction that moves the order out of pending/expired with a
 * conditional UPDATE, so repeated or racing payment notices and confirmations create it once.
 */
export function createOrderService(deps: {
  db: Kysely<Database>;
  settings: SettingsService;
  paySettings: PaySettingsStore;
  rateLimits: RateLimits;
  notices?: OrderNotices;
}) {
  const { db, settings, paySettings, rateLimits, notices } = deps;
  const signUpLimit = createSignUpLimit(rateLimits, settings);
  const lookups = rateLimits('order-lookups', LOOKUPS_WINDOW_MS);
  const checks = rateLimits('address-checks', 60_000);

  async function expireOverdue(): Promise<void> {
    await expireOverdueOrders(db, Date.now());
  }

  async function findOrder(orderNo: string): Promise<OrderRow | undefined> {
    return findOrderByNo(db, orderNo);
  }

  async function ownedOrder(auth: AuthContext, orderNo: string): Promise<OrderRow> {
    const order = await findOrder(orderNo);
    if (!order || (auth.role !== 'admin' && order.owner_id !== auth.accountId))
      throw ApiError.notFound(ORDER_NOT_FOUND);
    return order;
  }

  function providerFor(payMethod: string): PaymentProvider | undefined {
    return payMethod === 'manual' ? manualProvider : payMethod.startsWith('epay:') ? epayProvider : undefined;
  }

  /**
   * Records the payment and delivers the mailbox, exactly once. Returns the order as it stands;
   * an order already paid, delivered or cancelled is left as it is.
   */
  async function markPaid(notice: PaymentNotice): Promise<OrderRow> {
    // Read before the transaction: on SQLite the transaction holds the only connection.
    const current = await settings.get();
    return db.transaction().execute(async (trx) => {
      const now = Date.now();
      const moved = await markOrderPaidIfPending(trx, notice.orderNo, {
        paidAt: now,
        tradeNo: notice.tradeNo,
      });
      const order = await getOrderByNo(trx, notice.orderNo);
      if (!moved) return order;

      const fail = (failure: string) => recordOrderFailure(trx, order.id, failure);
      const domain = await findDomainById(trx, order.domain_id);
      if (!domain) return fail('已付款，但域名已被删除，无法开通邮箱，请联系买家退款或换一个域名');
      // The mailbox store's rule for a paid order: only an existing mailbox makes its address taken.
      const mailbox = await insertOrderedAccount(
        trx,
        {
          localPart: order.local_part,
          domain,
          passwordHash: order.password_hash,
          quotaBytes: current.defaultQuotaBytes,
          expiresAt: null,
          source: 'order',
          note: `订单 ${order.order_no}`,
        },
        now,
      );
      if (!mailbox) return fail('已付款，但该地址已被占用，无法开通邮箱，请联系买家退款或更换地址');
      return markOrderDelivered(trx, order.id, { mailboxId: mailbox.id, deliveredAt: now });
    });
  }

  async function soldOut(ownerId: number): Promise<boolean> {
    return (await remainingStock(db, ownerId)) === 0;
  }

  async function payMethods(): Promise<PayMethod[]> {
    const stored = await paySettings.read();
    return providers.flatMap((provider) => provider.methods(stored));
  }

  /** buyEmail's work once the sign-up limit admitted it. */
  async function placeOrder(input: BuyEmailBody, requestSiteUrl: string): Promise<BuyEmailData> {
    const methods = await payMethods();
    if (!methods.some((method) => method.id === input.payMethod)) {
      throw ApiError.badRequest('该支付方式暂不可用，请选择其他支付方式');
    }
    const provider = providerFor(input.payMethod);
    if (!provider) throw ApiError.badRequest('该支付方式暂不可用，请选择其他支付方式');
    const domain = await findDomainById(db, input.domainId);
    // A ¥0 price left from before the rule (migration 058) is not a sale: never a silent free order.
    if (domain?.for_sale !== 1 || domain.status !== 'active' || domain.price <= 0) {
      throw ApiError.notFound('该域名的邮箱暂不出售，请选择其他域名');
    }
    await refuseReservedLocalPart(settings, input.localPart);
    const localPart = input.localPart.toLowerCase();
    const address = `${localPart}@${domain.name}`;
    if (await soldOut(domain.owner_id)) throw ApiError.conflict('该域名的邮箱已售完，请选择其他域名');
    await expireOverdue();
    const taken = await addressTakenReason(db, address);
    if (taken) throw ApiError.conflict(taken);
    if ((await countPendingOrdersOfPhone(db, input.phone)) >= PENDING_PER_PHONE) {
      throw ApiError.tooMany(`该手机号已有 ${PENDING_PER_PHONE} 个未支付订单，请先完成支付或等待其过期`);
    }
    const stored = await paySettings.read();
    const passwordHash = await hashPassword(input.password);
    const now = Date.now();
    let order: OrderRow | undefined;
    for (let attempt = 0; attempt < 3 && !order; attempt++) {
      try {
        order = await db.transaction().execute(async (trx) => {
          const inserted = await insertOrder(trx, {
            order_no: newOrderNo(now),
            domain_id: domain.id,
            owner_id: domain.owner_id,
            local_part: localPart,
            address,
            phone: input.phone,
            password_hash: passwordHash,
            amount: domain.price,
            pay_method: input.payMethod,
            status: 'pending',
            created_at: now,
            expires_at: now + stored.orderTimeoutMinutes * 60_000,
          });
          await notices?.queue(trx, domain.owner_id, orderNotice(inserted, domain.name));
          return inserted;
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // The one-live-order-per-address index: another buyer took the name a moment ago.
        if (await addressTakenReason(db, address))
          throw ApiError.conflict(`邮箱 ${address} 刚刚被其他订单预留，请换一个前缀`);
      }
    }
    if (!order) throw ApiError.conflict('生成订单号失败，请重试');
    notices?.announce(domain.owner_id, orderNotice(order, domain.name));
    const start = provider.start(order, stored, { siteUrl: stored.siteUrl || requestSiteUrl });
    return {
      orderNo: order.order_no,
      amount: order.amount,
      status: order.status,
      address,
      expiresAt: toIso(order.expires_at),
      ...start,
    };
  }

  return {
    payMethods,
    findOrder,
    markPaid,

    /** Is `localPart@domain` free to buy or redeem? Rate-limited, since people type as it asks. */
    async checkAddress(
      domainId: number,
      localPartInput: string,
      client: ClientInfo,
    ): Promise<CheckAddressData> {
      if ((await checks.hit(client.ip)) > CHECKS_PER_IP_PER_MINUTE)
        throw ApiError.tooMany('查询过于频繁，请稍后再试', 60);
      const domain = await findDomainById(db, domainId);
      if (domain?.status !== 'active' || (domain.for_sale !== 1 && domain.public_registration !== 1))
        throw ApiError.notFound('域名不存在');
      const localPart = localPartInput.trim().toLowerCase();
      const address = `${localPart}@${domain.name}`;
      if (!LOCAL_PART.test(localPart)) {
        return {
          address,
          available: false,
          reason: '前缀只能包含字母、数字、点、下划线、加号或短横线，且首尾为字母或数字',
        };
      }
      const reason = await addressTakenReason(db, address);
      return reason ? { address, available: false, reason } : { address, available: true };
    },

    async buy(input: BuyEmailBody, client: ClientInfo, requestSiteUrl: string): Promise<BuyEmailData> {
      const current = await settings.get();
      if (!current.storeOpen) throw ApiError.forbidden('商店暂未开放');
      return signUpLimit.run(client.ip, () => placeOrder(input, requestSiteUrl));
    },

    /** queryOrder: a phone's orders, never with passwords; rate-limited per IP against enumeration. */
    async byPhone(phone: string, client: ClientInfo): Promise<PublicOrder[]> {
      if ((await lookups.hit(client.ip)) > LOOKUPS_PER_IP) {
        throw ApiError.tooMany(
          `查询过于频繁，请 ${LOOKUPS_WINDOW_MS / 60_000} 分钟后再试`,
          LOOKUPS_WINDOW_MS / 1000,
        );
      }
      await expireOverdue();
      const rows = await listOrdersOfPhone(db, phone.trim(), 50);
      return rows.map(publicOrderView);
    },

    /** getOrders: orders on the caller's domains; administrators see all. */
    async list(auth: AuthContext, query: OrderQuery): Promise<PageOf<Order>> {
      await expireOverdue();
      return pageOf(query, async (limit, offset) => {
        const filter: OrderFilter = {
          scope: auth.role === 'admin' ? { kind: 'all' } : { kind: 'owner', ownerId: auth.accountId ?? -1 },
          status: query.status,
          phone: query.phone?.trim() || undefined,
        };
        const [rows, total] = await Promise.all([
          listOrders(db, filter, { limit, offset }),
          countOrders(db, filter),
        ]);
        return { rows: rows.map(orderView), total };
      });
    },

    /** Manual payment received (an owner's or administrator's word): pay and deliver, once. */
    async confirm(auth: AuthContext, orderNo: string): Promise<Order> {
      const order = await ownedOrder(auth, orderNo);
      if (order.status === 'cancelled') throw ApiError.conflict('订单已取消，不能再确认收款');
      const result = await markPaid({ orderNo: order.order_no, tradeNo: null });
      return orderView(result);
    },

    async cancel(auth: AuthContext, orderNo: string): Promise<Order> {
      const order = await ownedOrder(auth, orderNo);
      const moved = await cancelOrderIfUnpaid(db, order.id);
      const current = await ownedOrder(auth, orderNo);
      if (!moved && current.status !== 'cancelled') {
        throw ApiError.conflict('订单已付款，不能取消');
      }
      return orderView(current);
    },

    /** A gateway's asynchronous notice: verified first; only then may anything change. */
    async handleNotice(
      providerId: string,
      params: Record<string, string>,
    ): Promise<{ ok: boolean; reason?: string }> {
      const provider = providers.find((candidate) => candidate.id === providerId);
      if (!provider?.verifyNotice) return { ok: false, reason: '未知的支付通道' };
      const check = await provider.verifyNotice(params, await paySettings.read(), findOrder);
      if (!check.ok) return check;
      const order = await markPaid(check.notice);
      // A notice for a cancelled order changes nothing; it is still answered so the gateway stops.
      return order.status === 'cancelled' ? { ok: true, reason: '订单已取消，需人工退款' } : { ok: true };
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
