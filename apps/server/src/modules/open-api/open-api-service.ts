import { type CreatedAddress, ErrorCode, type MailDetail, type OpenCreateEmailBody } from '@youju/contract';
import type { Kysely } from 'kysely';
import { findDomainIdInScope, findFirstDomainIdInScope } from '../../db/repositories/domain-repo.js';
import { findMailboxIdByAddressInScope } from '../../db/repositories/mailbox-repo.js';
import {
  findFirstMessageIdOfMailboxAfter,
  findLatestMessageIdOfMailbox,
} from '../../db/repositories/message-repo.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import type { MailEvents, MailService } from '../mail/index.js';
import type { AuthContext } from '../sessions/index.js';
import { managedScope } from '../sessions/index.js';
import type { SettingsService } from '../settings/index.js';

/**
 * The open API's own rules: which domain a new address goes on, which addresses
 * a key may read, and waiting for the next message without polling the database.
 */
export function createOpenApiService(deps: {
  db: Kysely<Database>;
  mail: MailService;
  mailEvents: MailEvents;
  settings: SettingsService;
}) {
  const { db, mail, mailEvents, settings } = deps;

  /** The mailbox behind an address the caller may read; 404 for anything else. */
  async function ownedMailbox(auth: AuthContext, address: string): Promise<number> {
    const id = await findMailboxIdByAddressInScope(db, managedScope(auth), address.trim().toLowerCase());
    if (id === undefined) throw ApiError.notFound('邮箱地址不存在，或不属于这个 API 密钥的账号');
    return id;
  }

  /** The oldest message of the mailbox newer than `after` among `ids` (all when ids is null). */
  async function firstNewer(mailboxId: number, after: number, ids: number[] | null): Promise<number | null> {
    return (await findFirstMessageIdOfMailboxAfter(db, mailboxId, after, ids)) ?? null;
  }

  return {
    ownedMailbox,

    async createEmail(auth: AuthContext, input: OpenCreateEmailBody): Promise<CreatedAddress> {
      let domainId = input.domainId;
      if (domainId === undefined) {
        const scope = managedScope(auth);
        const { defaultDomainId } = await settings.get();
        const preferred =
          defaultDomainId === null ? undefined : await findDomainIdInScope(db, scope, defaultDomainId);
        const first = preferred ?? (await findFirstDomainIdInScope(db, scope));
        if (first === undefined)
          throw ApiError.badRequest('账号下还没有域名，请先在域名管理中添加域名，或传入 domainId');
        domainId = first;
      }
      return mail.createAddress(auth, {
        domainId,
        ...(input.localPart ? { localPart: input.localPart } : {}),
      });
    },

    /**
     * Waits for the first message newer than `after` (or, without it, the first to arrive from now
     * on) at `address`, for at most `timeoutSeconds`. It subscribes to the new-mail events before it
     * looks, so that nothing slips between the look and the wait; `signal` ends the wait early when
     * the client goes away.
     */
    async waitEmail(
      auth: AuthContext,
      input: { address: string; timeoutSeconds: number; after?: number },
      signal?: AbortSignal,
    ): Promise<MailDetail> {
      const mailboxId = await ownedMailbox(auth, input.address);
      let after = input.after;
      let wake: (() => void) | null = null;
      const pending: number[][] = [];
      const unsubscribe = mailEvents.subscribe((ids) => {
        pending.push(ids);
        wake?.();
      });
      const deadline = Date.now() + input.timeoutSeconds * 1000;
      try {
        if (after === undefined) {
          after = (await findLatestMessageIdOfMailbox(db, mailboxId)) ?? 0;
        } else {
          const found = await firstNewer(mailboxId, after, null);
          if (found !== null) return await mail.get(auth, found);
        }
        for (;;) {
          while (pending.length > 0) {
            const ids = pending.splice(0).flat();
            const found = await firstNewer(mailboxId, after, ids);
            if (found !== null) return await mail.get(auth, found);
          }
          const remaining = deadline - Date.now();
          if (remaining <= 0 || signal?.aborted) break;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(finish, remaining);
            function finish() {
              clearTimeout(timer);
              signal?.removeEventListener('abort', finish);
              wake = null;
              resolve();
            }
            wake = finish;
            signal?.addEventListener('abort', finish);
          });
        }
      } finally {
        unsubscribe();
      }
      throw new ApiError(ErrorCode.timeout, `${input.timeoutSeconds} 秒内没有收到新邮件，请稍后再试`);
    },
  };
}

export type OpenApiService = ReturnType<typeof createOpenApiService>;
