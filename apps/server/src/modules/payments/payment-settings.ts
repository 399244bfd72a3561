import type { PaySettings, UpdatePaySettingsBody } from '@youju/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';

/** Everything stored under the `payment` settings key, the EPay key included. */
export interface StoredPaySettings extends Omit<PaySettings, 'epayKeySet'> {
  epayKey: string;
}

const SETTINGS_KEY = 'payment';

export const DEFAULT_PAY_SETTINGS: StoredPaySettings = {
  manualEnabled: true,
  manualInstructions: '下单后请联系站点管理员付款，付款确认后邮箱自动开通；可凭手机号在本页查询订单。',
  epayEnabled: false,
  epayGatewayUrl: '',
  epayMerchantId: '',
  epayKey: '',
  epayTypes: ['alipay', 'wxpay'],
  siteUrl: '',
  orderTimeoutMinutes: 30,
};

/**
 * Payment settings live in the `settings` table under one key (not among the system settings that
 * getVar and getSetting show), because they hold the EPay key, which is write-only: reads report
 * only whether it is set.
 */
export function createPaySettingsStore(db: Kysely<Database>) {
  async function read(): Promise<StoredPaySettings> {
    const row = await db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', SETTINGS_KEY)
      .executeTakeFirst();
    if (!row) return { ...DEFAULT_PAY_SETTINGS };
    try {
      return { ...DEFAULT_PAY_SETTINGS, ...(JSON.parse(row.value) as Partial<StoredPaySettings>) };
    } catch {
      return { ...DEFAULT_PAY_SETTINGS };
    }
  }

  function publicView(stored: StoredPaySettings): PaySettings {
    const { epayKey, ...rest } = stored;
    return { ...rest, epayKeySet: epayKey.length > 0 };
  }

  return {
    read,
    async view(): Promise<PaySettings> {
      return publicView(await read());
    },
    /** Applies the given fields; an absent or empty `epayKey` keeps the stored key. */
    async update(changes: UpdatePaySettingsBody): Promise<PaySettings> {
      const current = await read();
      const { epayKey, ...rest } = changes;
      const next: StoredPaySettings = { ...current, ...rest, epayKey: epayKey ? epayKey : current.epayKey };
      for (const [field, value] of [
        ['epayGatewayUrl', next.epayGatewayUrl],
        ['siteUrl', next.siteUrl],
      ] as const) {
        if (value && !/^https?:\/\/[^\s/]+/i.test(value)) {
          throw ApiError.badRequest(
            `${field === 'siteUrl' ? '站点地址' : '易支付网关地址'}必须以 http:// 或 https:// 开头`,
          );
        }
      }
      next.siteUrl = next.siteUrl.replace(/\/+$/, '');
      if (next.epayEnabled && (!next.epayGatewayUrl || !next.epayMerchantId || !next.epayKey)) {
        throw ApiError.badRequest('启用易支付需要先填写网关地址、商户号和密钥');
      }
      if (next.epayEnabled && next.epayTypes.length === 0) {
        throw ApiError.badRequest('启用易支付需要至少选择一种支付方式');
      }
      const value = JSON.stringify(next);
      await db
        .insertInto('settings')
        .values({ key: SETTINGS_KEY, value })
        .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
        .execute();
      return publicView(next);
    },
  };
}

export type PaySettingsStore = ReturnType<typeof createPaySettingsStore>;
