import type { OwnerScope } from '../../db/repositories/domain-repo.js';
import type { AuthContext } from './session-service.js';

/**
 * Who may touch which domain and mailbox: an administrator everything, a system user what its own
 * account owns (its domains and the mailboxes on them), a mailbox session none of them.
 */
export function mayManage(auth: AuthContext, ownerId: number): boolean {
  return auth.role === 'admin' || ownerId === auth.accountId;
}

/** The same rule as a list's scope: every owner's for an administrator, else the caller's own. */
export function managedScope(auth: AuthContext): OwnerScope {
  // A mailbox session has no account: -1 owns nothing.
  return auth.role === 'admin' ? { kind: 'all' } : { kind: 'owner', ownerId: auth.accountId ?? -1 };
}
