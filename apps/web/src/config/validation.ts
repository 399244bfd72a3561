import type { Rule } from 'antd/es/form';

/**
 * Form rules mirroring the contract's request schemas (packages/contract/src/schemas/common.ts), so a
 * person learns what to fix before the server answers 400. The contract exports these only as TypeBox
 * schemas, which the client does not bundle.
 */
const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;
const LOCAL_PART_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9._+-]{0,62}[A-Za-z0-9])?$/;
const PASSWORD_MIN = 6;
const PASSWORD_MAX = 128;

export const rules = {
  username: [
    { required: true, message: '请输入用户名' },
    { pattern: USERNAME_PATTERN, message: '用户名为 3 到 32 位字母、数字、下划线、点或短横线' },
  ],
  loginName: [{ required: true, message: '请输入用户名' }],
  loginPassword: [{ required: true, message: '请输入密码' }],
  password: [
    { required: true, message: '请输入密码' },
    { min: PASSWORD_MIN, max: PASSWORD_MAX, message: `密码长度为 ${PASSWORD_MIN} 到 ${PASSWORD_MAX} 位` },
  ],
  optionalPassword: [
    { min: PASSWORD_MIN, max: PASSWORD_MAX, message: `密码长度为 ${PASSWORD_MIN} 到 ${PASSWORD_MAX} 位` },
  ],
  email: [
    { required: true, message: '请输入邮箱地址' },
    { type: 'email', message: '邮箱地址格式不正确' },
  ],
  optionalLocalPart: [
    {
      pattern: LOCAL_PART_PATTERN,
      message: '邮箱前缀只能包含字母、数字、点、下划线、加号或短横线，且首尾为字母或数字',
    },
  ],
  setupToken: [{ required: true, message: '请输入初始化令牌' }],
} satisfies Record<string, Rule[]>;

/**
 * The form field `confirmPassword`, where a password is typed again: required, checked again when
 * `passwordField` changes, and the same as it. Spread into its Form.Item.
 */
export function confirmationField(passwordField: string, what = '密码') {
  const confirmationRules: Rule[] = [
    { required: true, message: `请再次输入${what}` },
    ({ getFieldValue }) => ({
      validator: (_rule, value) =>
        !value || getFieldValue(passwordField) === value
          ? Promise.resolve()
          : Promise.reject(new Error(`两次输入的${what}不一致`)),
    }),
  ];
  return { name: 'confirmPassword', dependencies: [passwordField], rules: confirmationRules };
}
