import type { Kysely } from 'kysely';
import { revokeApiKeysOfOwner } from '../../db/repositories/api-key-repo.js';
import { findMailboxIdentity } from '../../db/repositories/mailbox-repo.js';
import {
  findLiveSessionByTokenHash,
  insertSession,
  revokeOpenSessionsOfSubject,
  revokeSession,
  touchSession,
} from '../../db/repositories/session-repo.js';
import { findSystemAccountIdentity } from '../../db/repositories/system-account-repo.js';
import type { Database } from '../../db/schema.js';
import { DAY } from '../../lib/time.js';
import { hashToken, newToken } from '../../lib/tokens.js';

export type SubjectKind = 'system' | 'mailbox';

/** Who is calling, as established from a valid bearer token. */
export interface AuthContext {
  sessionId: number;
  role: 'admin' | 'user' | 'mailbox';
  /** system account id, for admin and user */
  accountId: number | null;
  /** mailbox id, for mailbox sessions */
  mailboxId: number | null;
  /** account name or mailbox address */
  name: string;
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

/** Sessions slide: each use (at most once a minute) pushes the expiry forward by this much. */
const SESSION_LIFETIME = 7 * DAY;
const TOUCH_INTERVAL = 60_000;

export function createSessionService(db: Kysely<Database>) {
  return {
    /** Starts a session and returns the bearer token; only its hash is stored. */
    async issue(kind: SubjectKind, subjectId: number, client: ClientInfo, expiresAt?: number | null) {
      const token = newToken();
      const now = Date.now();
      await insertSession(db, {
        token_hash: hashToken(token),
        subject_kind: kind,
        subject_id: subjectId,
        created_at: now,
        last_seen_at: now,
        expires_at: expiresAt ?? now + SESSION_LIFETIME,
        ip: client.ip.slice(0, 64),
        user_agent: client.userAgent.slice(0, 300),
      });
      return token;
    },

    async authenticate(token: string): Promise<AuthContext | null> {
      if (!token || token.length > 200) return null;
      const now = Date.now();
      const session = await findLiveSessionByTokenHash(db, hashToken(token), now);
      if (!session) return null;

      let context: AuthContext | null = null;
      let slides = true;
      if (session.subject_kind === 'system') {
        const account = await findSystemAccountIdentity(db, session.subject_id);
        if (account?.enabled) {
          context = {
            sessionId: session.id,
            role: account.role,
            accountId: account.id,
            mailboxId: null,
            name: account.username,
          };
        }
      } else {
        const mailbox = await findMailboxIdentity(db, session.subject_id);
        if (mailbox?.enabled && (mailbox.expires_at === null || mailbox.expires_at > now)) {
          context = {
            sessionId: session.id,
            role: 'mailbox',
            accountId: null,
            mailboxId: mailbox.id,
            name: mailbox.address,
          };
          // A temporary mailbox's session lives exactly as long as the mailbox.
          slides = mailbox.password_hash !== null;
        }
      }
      if (!context) return null;
      if (slides && now - session.last_seen_at > TOUCH_INTERVAL) {
        await touchSession(db, session.id, now, now + SESSION_LIFETIME);
      }
      return context;
    },

    async revoke(sessionId: number): Promise<void> {
      await revokeSession(db, sessionId, Date.now());
    },

    /** Ends every session of an account or mailbox (password change, disabling, deletion). */
    /**
     * Ends every credential of the subject: its login sessions and, for a system account, its open
     * API key (a new password or a disabled account must shut out whoever held the old ones; the
     * owner makes a new key in /user/interface).
     */
    async revokeAll(kind: SubjectKind, subjectId: number): Promise<void> {
      const now = Date.now();
      await revokeOpenSessionsOfSubject(db, kind, subjectId, now);
      if (kind === 'system') await revokeApiKeysOfOwner(db, subjectId, now);
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
