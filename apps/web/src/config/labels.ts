import type { Role } from '@youju/contract';

/** Chinese names of roles, as every screen shows them. */
export const roleLabels: Record<Role, string> = {
  anonymous: '访客',
  mailbox: '邮箱用户',
  user: '普通用户',
  admin: '管理员',
};

export function roleLabel(role: unknown): string {
  return typeof role === 'string' && role in roleLabels ? roleLabels[role as Role] : '未知角色';
}
