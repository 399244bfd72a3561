import type { LoginHistoryItem, PageOf, PageQuery, SessionItem } from '@youju/contract';
import type { Kysely } from 'kysely';
import {
  countLoginHistoryOfSubject,
  deleteLoginHistoryBefore,
  insertLoginAttempt,
  listLoginHistoryOfSubject,
} from '../../db/repositories/login-history-repo.js';
import {
  listLiveSessionsOfSubject,
  revokeOpenSessionOfSubject,
  revokeOtherOpenSessionsOfSubject,
} from '../../db/repositories/session-repo.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { pageOf } from '../../lib/paging.js';
import { DAY, toIso } from '../../lib/time.js';
import type { AuthContext, ClientInfo, SubjectKind } from '../sessions/index.js';
import { describeUserAgent } from './user-agent.js';

/** Login attempts are kept this long. */
const HISTORY_DAYS = 180;

export interface LoginAttempt {
  kind: SubjectKind;
  /** null when the name typed belongs to nobody */
  subjectId: number | null;
  identifier: string;
  client: ClientInfo;
  success: boolean;
  /** why it failed, in Chinese */
  reason?: string;
}

function subjectOf(auth: AuthContext): { kind: SubjectKind; id: number } {
  return auth.role === 'mailbox'
    ? { kind: 'mailbox', id: auth.mailboxId ?? -1 }
    : { kind: 'system', id: auth.accountId ?? -1 };
}

/**
 * The security centre (/user/safe): the caller's active sessions, revoking them, and the login
 * history the auth service writes.
 */
export function createSecurityService(db: Kysely<Database>) {
  return {
    /** Called by the auth service after every login attempt; never fails the login itself. */
    async recordLogin(attempt: LoginAttempt): Promise<void> {
      try {
        await insertLoginAttempt(db, {
          subject_kind: attempt.subjectId === null ? null : attempt.kind,
          subject_id: attempt.subjectId,
          identifier: attempt.identifier.slice(0, 254),
          ip: attempt.client.ip.slice(0, 64),
          user_agent: attempt.client.userAgent.slice(0, 300),
          success: attempt.success ? 1 : 0,
          reason: attempt.reason ?? '',
          created_at: Date.now(),
        });
      } catch {
        // The history is a convenience; a login must not fail because it could not be written.
      }
    },

    async loginHistory(auth: AuthContext, query: PageQuery): Promise<PageOf<LoginHistoryItem>> {
      const subject = subjectOf(auth);
      return pageOf(query, async (limit, offset) => {
        const [rows, total] = await Promise.all([
          listLoginHistoryOfSubject(db, subject.kind, subject.id, { limit, offset }),
          countLoginHistoryOfSubject(db, subject.kind, subject.id),
        ]);
        return {
          total,
          rows: rows.map((row) => ({
            id: row.id,
            identifier: row.identifier,
            ip: row.ip,
            userAgent: row.user_agent,
            device: describeUserAgent(row.user_agent),
            success: row.success === 1,
            reason: row.reason,
            createdAt: toIso(row.created_at),
          })),
        };
      });
    },

    async sessions(auth: AuthContext): Promise<SessionItem[]> {
      const subject = subjectOf(auth);
      const rows = await listLiveSessionsOfSubject(db, subject.kind, subject.id, Date.now());
      return rows.map((row) => ({
        id: row.id,
        ip: row.ip,
        userAgent: row.user_agent,
        device: describeUserAgent(row.user_agent),
        createdAt: toIso(row.created_at),
        lastSeenAt: toIso(row.last_seen_at),
        current: row.id === auth.sessionId,
      }));
    },

    /** Ends one of the caller's sessions (another device); the current one ends with logout. */
    async revokeSession(auth: AuthContext, id: number): Promise<void> {
      if (id === auth.sessionId) throw ApiError.badRequest('不能在这里结束当前会话，请使用“退出登录”');
      const subject = subjectOf(auth);
      if (!(await revokeOpenSessionOfSubject(db, id, subject.kind, subject.id, Date.now()))) {
        throw ApiError.notFound('该会话不存在或已结束');
      }
    },

    /** Ends every session of the caller but this one. */
    async revokeOtherSessions(auth: AuthContext): Promise<number> {
      const subject = subjectOf(auth);
      return revokeOtherOpenSessionsOfSubject(db, subject.kind, subject.id, auth.sessionId, Date.now());
    },

    async purgeHistory(now = Date.now()): Promise<void> {
      await deleteLoginHistoryBefore(db, now - HISTORY_DAYS * DAY);
    },
  };
}

export type SecurityService = ReturnType<typeof createSecurityService>;
