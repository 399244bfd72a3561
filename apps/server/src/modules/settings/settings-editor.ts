import {
  type PaymentSettingsChanges,
  type PaymentSettingsView,
  SECRET_MASK,
  type SettingData,
  type SystemSettings,
  type SystemSettingsView,
  type UpdateSettingBody,
} from '@youju/contract';
import type { Kysely } from 'kysely';
import { findDomainById } from '../../db/repositories/domain-repo.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import type { AuthContext, SubjectKind } from '../sessions/index.js';
import type { PersonalSettingsService } from './personal-settings.js';
import type { SettingsService } from './settings-service.js';

/**
 * The payment settings as the store's payment module keeps them (modules/payments, settings key
 * `payment`). That module owns them and the EPay key's rules (masked when read, the mask sent back
 * keeps it); this one only passes the `payment` part through.
 */
export interface PaymentSettingsPort {
  maskedView(): Promise<PaymentSettingsView>;
  updateFromSettingsPage(changes: PaymentSettingsChanges): Promise<unknown>;
}

/** `******` for a set secret: nothing of the secret itself, not even its length or its end. */
export function maskSecret(secret: string): string {
  return secret ? SECRET_MASK : '';
}

function isMasked(value: string): boolean {
  return value.startsWith(SECRET_MASK);
}

/** The relay URL with its password masked. */
export function maskRelayUrl(relayUrl: string): { url: string; passwordSet: boolean } {
  if (!relayUrl) return { url: '', passwordSet: false };
  try {
    const parsed = new URL(relayUrl);
    if (!parsed.password) return { url: relayUrl, passwordSet: false };
    parsed.password = maskSecret(decodeURIComponent(parsed.password));
    return { url: parsed.toString(), passwordSet: true };
  } catch {
    return { url: '', passwordSet: false };
  }
}

/**
 * Checks a relay URL (`smtp://` or `smtps://[user:pass@]host:port`, as `RELAY_URL`) and,
 * when its password is the mask it was shown with, puts the stored password back.
 */
export function acceptRelayUrl(input: string, stored: string): string {
  const value = input.trim();
  if (!value) return '';
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw ApiError.badRequest(
      '外发中继地址（relayUrl）格式不正确，例如 smtp://用户名:密码@smtp.example.com:587',
    );
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw ApiError.badRequest('外发中继地址（relayUrl）必须以 smtp:// 或 smtps:// 开头');
  }
  if (!parsed.hostname) throw ApiError.badRequest('外发中继地址（relayUrl）缺少服务器地址');
  if (parsed.pathname && parsed.pathname !== '/') {
    throw ApiError.badRequest('外发中继地址（relayUrl）只能包含协议、账号、服务器和端口');
  }
  if (parsed.password && isMasked(decodeURIComponent(parsed.password))) {
    let previous = '';
    try {
      previous = stored ? new URL(stored).password : '';
    } catch {
      previous = '';
    }
    if (!previous) throw ApiError.badRequest('外发中继地址（relayUrl）的密码请重新填写');
    parsed.password = previous;
  }
  return parsed.toString().replace(/\/$/, '');
}

function subjectOf(auth: AuthContext): { kind: SubjectKind; id: number } {
  return auth.role === 'mailbox'
    ? { kind: 'mailbox', id: auth.mailboxId ?? -1 }
    : { kind: 'system', id: auth.accountId ?? -1 };
}

/**
 * getSetting / updateSetting: system and payment settings for administrators,
 * personal settings for everyone. Secrets are write-only: they leave masked, and the mask sent back
 * keeps them unchanged. Every read goes to the database, so a change applies at once in every
 * process (getVar included).
 */
export function createSettingsEditor(deps: {
  db: Kysely<Database>;
  settings: SettingsService;
  personal: PersonalSettingsService;
  payments?: PaymentSettingsPort;
}) {
  const { db, settings, personal, payments } = deps;

  async function systemView(): Promise<SystemSettingsView> {
    const current = await settings.get();
    const relay = maskRelayUrl(current.relayUrl);
    return { ...current, relayUrl: relay.url, relayPasswordSet: relay.passwordSet };
  }

  async function paymentView(): Promise<PaymentSettingsView | undefined> {
    return payments?.maskedView();
  }

  async function checkSystem(changes: Partial<SystemSettings>): Promise<Partial<SystemSettings>> {
    const current = await settings.get();
    const next = { ...changes };
    if (next.siteName !== undefined) {
      next.siteName = next.siteName.trim();
      if (!next.siteName) throw ApiError.badRequest('站点名称（siteName）不能为空');
    }
    if (next.relayUrl !== undefined) next.relayUrl = acceptRelayUrl(next.relayUrl, current.relayUrl);
    if (next.defaultDomainId !== undefined && next.defaultDomainId !== null) {
      const domain = await findDomainById(db, next.defaultDomainId);
      if (!domain) throw ApiError.badRequest('默认域名（defaultDomainId）不存在，请先在域名管理中添加');
    }
    const perHour = next.sendPerHour ?? current.sendPerHour;
    const perDay = next.sendPerDay ?? current.sendPerDay;
    if (perHour > 0 && perDay > 0 && perDay < perHour) {
      throw ApiError.badRequest('每天发信上限（sendPerDay）不能小于每小时发信上限（sendPerHour）');
    }
    return next;
  }

  async function read(auth: AuthContext): Promise<SettingData> {
    const subject = subjectOf(auth);
    const data: SettingData = { personal: await personal.get(subject.kind, subject.id) };
    if (auth.role === 'admin') {
      data.system = await systemView();
      const payment = await paymentView();
      if (payment) data.payment = payment;
    }
    return data;
  }

  return {
    read,

    async update(auth: AuthContext, body: UpdateSettingBody): Promise<SettingData> {
      if ((body.system || body.payment) && auth.role !== 'admin') {
        throw ApiError.forbidden('只有管理员可以修改系统设置');
      }
      // Validate everything before writing anything, so a bad value changes nothing.
      const system = body.system ? await checkSystem(body.system) : null;
      if (body.payment) {
        if (!payments) throw ApiError.badRequest('支付设置暂不可用');
        await payments.updateFromSettingsPage(body.payment);
      }
      if (system) await settings.update(system);
      if (body.personal) {
        const subject = subjectOf(auth);
        await personal.update(subject.kind, subject.id, body.personal);
      }
      return read(auth);
    },
  };
}

export type SettingsEditor = ReturnType<typeof createSettingsEditor>;
