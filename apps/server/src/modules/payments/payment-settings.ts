import {
  type PaymentSettingsChanges,
  type PaymentSettingsView,
  type PaySettings,
  SECRET_MASK,
  type UpdatePaySettingsBody,
} from '@youju/contract';
import type { Kysely } from 'kysely';
import { findSettingValue, saveSetting } from '../../db/repositories/setting-repo.js';
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
 * only whether it is set. This store is the one place that reads and writes them and applies the
 * key's rules, for both pages that edit them: getPaySettings/updatePaySettings (the store) and the
 * `payment` part of getSetting/updateSetting (the settings page, modules/settings).
 */
export function createPaySettingsStore(db: Kysely<Database>) {
  async function read(): Promise<StoredPaySettings> {
    const value = await findSettingValue(db, SETTINGS_KEY);
    if (value === undefined) return { ...DEFAULT_PAY_SETTINGS };
    try {
      return { ...DEFAULT_PAY_SETTINGS, ...(JSON.parse(value) as Partial<StoredPaySettings>) };
    } catch {
      return { ...DEFAULT_PAY_SETTINGS };
    }
  }

  function publicView(stored: StoredPaySettings): PaySettings {
    const { epayKey, ...rest } = stored;
    return { ...rest, epayKeySet: epayKey.length > 0 };
  }

  /** Applies the given fields; an absent or empty `epayKey` keeps the stored key. */
  async function update(changes: UpdatePaySettingsBody): Promise<PaySettings> {
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
    await saveSetting(db, SETTINGS_KEY, JSON.stringify(next));
    return publicView(next);
  }

  return {
    read,
    /** getPaySettings: the key only as whether it is set. */
    async view(): Promise<PaySettings> {
      return publicView(await read());
    },
    update,
    /** getSetting's `payment` part: the key also as its mask (`******` when set, else empty). */
    async maskedView(): Promise<PaymentSettingsView> {
      const view = publicView(await read());
      return { ...view, epayKeyMasked: view.epayKeySet ? SECRET_MASK : '' };
    },
    /**
     * updateSetting's `payment` part: the settings page sends the key back as the mask it was
     * shown with, which (like an absent or empty key) keeps the stored key.
     */
    async updateFromSettingsPage(changes: PaymentSettingsChanges): Promise<PaySettings> {
      const { epayKey, ...rest } = changes;
      return update(epayKey === undefined || epayKey.startsWith(SECRET_MASK) ? rest : { ...rest, epayKey });
    },
  };
}

export type PaySettingsStore = ReturnType<typeof createPaySettingsStore>;
