import type { Rule } from 'antd/es/form';
import { t } from '../lib/i18n';

/**
 * Form rules mirroring the contract's request schemas (packages/contract/src/schemas/common.ts), so a
 * person learns what to fix before the server answers 400. The contract exports these only as TypeBox
 * schemas, which the client does not bundle.
 */
const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;
const LOCAL_PART_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9._+-]{0,62}[A-Za-z0-9])?$/;
const PASSWORD_MIN = 6;
const PASSWORD_MAX = 128;

/**
 * The rules, each a getter: its messages are read in the interface's current language when a form
 * renders, never once at import (before the language is known).
 */
export const rules = {
  get username(): Rule[] {
    return [
      { required: true, message: t('请输入用户名') },
      { pattern: USERNAME_PATTERN, message: t('用户名为 3 到 32 位字母、数字、下划线、点或短横线') },
    ];
  },
  get loginName(): Rule[] {
    return [{ required: true, message: t('请输入用户名') }];
  },
  get loginPassword(): Rule[] {
    return [{ required: true, message: t('请输入密码') }];
  },
  get password(): Rule[] {
    return [{ required: true, message: t('请输入密码') }, ...rules.optionalPassword];
  },
  get optionalPassword(): Rule[] {
    return [
      {
        min: PASSWORD_MIN,
        max: PASSWORD_MAX,
        message: t('密码长度为 {min} 到 {max} 位', { min: PASSWORD_MIN, max: PASSWORD_MAX }),
      },
    ];
  },
  get email(): Rule[] {
    return [
      { required: true, message: t('请输入邮箱地址') },
      { type: 'email', message: t('邮箱地址格式不正确') },
    ];
  },
  get optionalLocalPart(): Rule[] {
    return [
      {
        pattern: LOCAL_PART_PATTERN,
        message: t('邮箱前缀只能包含字母、数字、点、下划线、加号或短横线，且首尾为字母或数字'),
      },
    ];
  },
  get setupToken(): Rule[] {
    return [{ required: true, message: t('请输入初始化令牌') }];
  },
};

/**
 * The form field `confirmPassword`, where a password is typed again: required, checked again when
 * `passwordField` changes, and the same as it. Spread into its Form.Item. The field `newPassword`
 * (a password being changed) is named "new password" in the messages.
 */
export function confirmationField(passwordField: string) {
  const isNew = passwordField === 'newPassword';
  const confirmationRules: Rule[] = [
    { required: true, message: isNew ? t('请再次输入新密码') : t('请再次输入密码') },
    ({ getFieldValue }) => ({
      validator: (_rule, value) =>
        !value || getFieldValue(passwordField) === value
          ? Promise.resolve()
          : Promise.reject(new Error(isNew ? t('两次输入的新密码不一致') : t('两次输入的密码不一致'))),
    }),
  ];
  return { name: 'confirmPassword', dependencies: [passwordField], rules: confirmationRules };
}
