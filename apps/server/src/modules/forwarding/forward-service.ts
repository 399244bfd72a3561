import type { ForwardSetting, SetForward } from '@youju/contract';
import type { Kysely } from 'kysely';
import { activeDomainNameExists } from '../../db/repositories/domain-repo.js';
import { deleteForward, findForward, saveForward } from '../../db/repositories/forward-repo.js';
import { findMailboxByAddress } from '../../db/repositories/mailbox-repo.js';
import type { Database, MailboxRow } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { toIso } from '../../lib/time.js';
import { isVisitorMailbox } from '../sending/index.js';
import { type AuthContext, mayManage } from '../sessions/index.js';
import type { SettingsService } from '../settings/index.js';

/** One answer for "no such mailbox" and "not yours", so that nobody learns which addresses exist. */
const NOT_FOUND = '邮箱不存在，或不在你的管理范围内';

/**
 * A forwarding target as people write it: local@domain, the domain a dotted DNS name (RFC 5321
 * section 4.1.2 Mailbox, without quoted local parts or address literals: we relay to neither),
 * the local part at most 64 octets (section 4.5.3.1.1).
 */
const TARGET =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Forwarding settings (getForward, setForward): a mailbox session its own mailbox, a system user
 * the mailboxes on its domains, an administrator every mailbox (sessions/ownership.ts mayManage).
 */
export function createForwardService(deps: { db: Kysely<Database>; settings: SettingsService }) {
  const { db, settings } = deps;

  async function mailboxFor(auth: AuthContext, address: string): Promise<MailboxRow> {
    const mailbox = await findMailboxByAddress(db, address.trim().toLowerCase());
    const allowed =
      mailbox !== undefined &&
      (auth.role === 'mailbox' ? auth.mailboxId === mailbox.id : mayManage(auth, mailbox.owner_id));
    if (!mailbox || !allowed) throw ApiError.notFound(NOT_FOUND);
    return mailbox;
  }

  async function view(mailbox: MailboxRow): Promise<ForwardSetting> {
    const row = await findForward(db, mailbox.id);
    return {
      address: mailbox.address,
      forwardTo: row?.forward_to ?? null,
      keepCopy: row ? row.keep_copy !== 0 : true,
      enabled: row ? row.enabled !== 0 : false,
      lastSkipped:
        row?.last_skipped_at != null
          ? { at: toIso(row.last_skipped_at), reason: row.last_skip_reason ?? '' }
          : null,
    };
  }

  return {
    async get(auth: AuthContext, address: string): Promise<ForwardSetting> {
      return view(await mailboxFor(auth, address));
    },

    /**
     * Sets, pauses or (forwardTo null) removes the forwarding of a mailbox. Refused: a target that
     * is not a plain external address, the mailbox itself, any address on a domain of this service
     * (mail between our own mailboxes needs no forwarding and could loop here), and for temporary
     * and visitor-registered mailboxes any forwarding while `anonymousSend` is off (they may send
     * only inside the service; forwarding out would be a way round it).
     */
    async set(auth: AuthContext, input: SetForward): Promise<ForwardSetting> {
      const mailbox = await mailboxFor(auth, input.address);
      if (input.forwardTo === null) {
        await deleteForward(db, mailbox.id);
        return view(mailbox);
      }
      const target = input.forwardTo.trim();
      if (!TARGET.test(target) || target.length > 254) {
        throw ApiError.badRequest('转发地址格式不正确，请填写完整的外部邮箱地址，例如 name@example.com');
      }
      const normalized = target.toLowerCase();
      if (normalized === mailbox.address.toLowerCase()) {
        throw ApiError.badRequest('不能把邮件转发给邮箱自己');
      }
      // A pending domain is not ours yet: its mail goes to its real MX, so it may be a target.
      if (await activeDomainNameExists(db, domainOf(normalized))) {
        throw ApiError.badRequest('转发目标是本站的地址：本站邮箱之间无需转发，请填写站外的邮箱地址');
      }
      const enabled = input.enabled ?? true;
      const anonymous = isVisitorMailbox(mailbox.source);
      if (enabled && anonymous && !(await settings.get()).anonymousSend) {
        throw ApiError.forbidden('临时邮箱和自助注册的邮箱只能在本站内收发邮件，不能转发到站外');
      }
      await saveForward(db, {
        mailboxId: mailbox.id,
        forwardTo: target,
        keepCopy: input.keepCopy ?? true,
        enabled,
        now: Date.now(),
      });
      return view(mailbox);
    },
  };
}

export type ForwardService = ReturnType<typeof createForwardService>;
