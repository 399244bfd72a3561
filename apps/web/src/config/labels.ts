import type { Role } from '@youju/contract';
import { t } from '../lib/i18n';

/**
 * Names of roles, as every screen shows them, in the interface's language: a function, so that the
 * names are read at render time (after the language is chosen), never once at import.
 */
export function roleLabels(): Record<Role, string> {
  return {
    anonymous: t('访客'),
    mailbox: t('邮箱用户'),
    user: t('普通用户'),
    admin: t('管理员'),
  };
}

export function roleLabel(role: unknown): string {
  const labels = roleLabels();
  return typeof role === 'string' && role in labels ? labels[role as Role] : t('未知角色');
}
