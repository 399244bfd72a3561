import type { DashboardView, GuideState } from '@youju/contract';
import type { Kysely } from 'kysely';
import { countDomainsByDnsStatus, listDomains, type OwnerScope } from '../../db/repositories/domain-repo.js';
import { summarizeMailboxesByKind } from '../../db/repositories/mailbox-repo.js';
import {
  countMailboxesReceivingSince,
  countReceivedMessagesAndSpam,
  countReceivedMessagesByDay,
  type DayBuckets,
  hasReceivedMessages,
} from '../../db/repositories/message-repo.js';
import {
  countFinishedDeliveriesByStatus,
  countWaitingDeliveries,
} from '../../db/repositories/outbound-queue-repo.js';
import { countSentMessagesByDay, hasSentMessages } from '../../db/repositories/sent-message-repo.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { DAY } from '../../lib/time.js';
import type { AuthContext } from '../sessions/index.js';
import { managedScope } from '../sessions/index.js';

const DAYS = 30;

/** Local midnight of `now` and the time zone offset used to cut days (the server's zone). */
function dayStart(now: number): { today: number; offset: number } {
  const offset = -new Date(now).getTimezoneOffset() * 60_000;
  const today = Math.floor((now + offset) / DAY) * DAY - offset;
  return { today, offset };
}

function isoDay(dayNumber: number): string {
  return new Date(dayNumber * DAY).toISOString().slice(0, 10);
}

function percent(part: number, whole: number, empty = 100): number {
  if (whole <= 0) return empty;
  return Math.round(Math.min(1, Math.max(0, part / whole)) * 1000) / 10;
}

/**
 * getDashboard: totals, a 30-day daily series and the health radar. Every figure is
 * one aggregate over an indexed column (messages.received_at, mailboxes.owner_id, domains.owner_id),
 * so the cost grows with the last 30 days' mail, not with the whole store.
 */
export function createDashboardService(db: Kysely<Database>) {
  /**
   * Outbound figures from the sent folder and the per-recipient queue (migration 015): messages
   * sent per day, recipients still waiting, and how the window's deliveries ended.
   */
  async function outbound(scope: OwnerScope, since: number, days: DayBuckets) {
    const [daily, waiting, outcomes] = await Promise.all([
      countSentMessagesByDay(db, scope, since, days),
      countWaitingDeliveries(db, scope),
      countFinishedDeliveriesByStatus(db, scope, since),
    ]);
    const dailySent = new Map(daily.map((row) => [Number(row.day), Number(row.count)]));
    const outcome = (status: string) => Number(outcomes.find((row) => row.status === status)?.count ?? 0);
    return {
      sentInWindow: [...dailySent.values()].reduce((total, count) => total + count, 0),
      queueLength: waiting,
      deliveryFailures: outcome('failed'),
      delivered: outcome('delivered'),
      attempted: outcome('delivered') + outcome('failed'),
      dailySent,
    };
  }

  return {
    /**
     * getGuide: the first-run checklist from real state: a domain, its DNS check passed, a message
     * sent, a message received, all in the caller's scope.
     */
    async guide(auth: AuthContext): Promise<GuideState> {
      if (auth.role === 'mailbox' || auth.accountId === null)
        throw ApiError.forbidden('入门清单只对系统账号开放');
      const scope = managedScope(auth);
      const [domains, testMailSent, mailReceived] = await Promise.all([
        listDomains(db, scope),
        hasSentMessages(db, scope),
        hasReceivedMessages(db, scope),
      ]);
      const active = domains.filter((domain) => domain.status === 'active');
      // The domain the steps point at: one whose DNS passed, else the first active one.
      const first = active.find((domain) => domain.dns_status === 'ok') ?? active[0] ?? null;
      return {
        domains: domains.length,
        dnsReady: domains.some((domain) => domain.dns_status === 'ok'),
        testMailSent,
        mailReceived,
        firstDomain: first ? { id: first.id, name: first.name } : null,
      };
    },

    async view(auth: AuthContext, now = Date.now()): Promise<DashboardView> {
      if (auth.role === 'mailbox' || auth.accountId === null)
        throw ApiError.forbidden('仪表盘只对系统账号开放');
      // Administrators see the whole system, a user its own part.
      const scope = managedScope(auth);
      const { today, offset } = dayStart(now);
      const since = today - (DAYS - 1) * DAY;
      const days: DayBuckets = { offset, length: DAY };

      const [daily, today30, mailboxRows, domainRows, active, sent] = await Promise.all([
        countReceivedMessagesByDay(db, scope, since, days),
        countReceivedMessagesAndSpam(db, scope, since),
        summarizeMailboxesByKind(db, scope, now),
        countDomainsByDnsStatus(db, scope),
        countMailboxesReceivingSince(db, scope, since),
        outbound(scope, since, days),
      ]);

      const receivedByDay = new Map(daily.map((row) => [Number(row.day), Number(row.count)]));
      const firstDay = Math.round((since + offset) / DAY);
      const series = Array.from({ length: DAYS }, (_, index) => {
        const number = firstDay + index;
        return {
          date: isoDay(number),
          received: receivedByDay.get(number) ?? 0,
          sent: sent.dailySent.get(number) ?? 0,
        };
      });

      const count = (kind: string) => Number(mailboxRows.find((row) => row.kind === kind)?.count ?? 0);
      const sum = (field: 'used' | 'quota' | 'usedWithQuota' | 'usable') =>
        mailboxRows.reduce((total, row) => total + Number(row[field] ?? 0), 0);
      const allMailboxes = count('address') + count('account');
      const domainCount = domainRows.reduce((total, row) => total + Number(row.count), 0);
      const dnsScore = domainRows.reduce(
        (total, row) =>
          total + Number(row.count) * (row.dns_status === 'ok' ? 1 : row.dns_status === 'partial' ? 0.5 : 0),
        0,
      );
      const received30 = Number(today30.total);
      const spam = Number(today30.spam ?? 0);
      const quota = sum('quota');

      return {
        scope: scope.kind === 'all' ? 'system' : 'own',
        totals: {
          receivedToday: series[series.length - 1]?.received ?? 0,
          received30d: received30,
          sentToday: series[series.length - 1]?.sent ?? 0,
          sent30d: sent.sentInWindow,
          addresses: count('address'),
          mailboxes: count('account'),
          domains: domainCount,
          storageBytes: sum('used'),
          queueLength: sent.queueLength,
          deliveryFailures: sent.deliveryFailures,
        },
        daily: series,
        radar: [
          { name: 'DNS 配置', value: percent(dnsScore, domainCount, 0), max: 100 },
          { name: '投递成功率', value: percent(sent.delivered, sent.attempted), max: 100 },
          {
            name: '垃圾邮件控制',
            value: Math.round((100 - percent(spam, received30, 0)) * 10) / 10,
            max: 100,
          },
          {
            name: '存储余量',
            value: Math.round((100 - percent(sum('usedWithQuota'), quota, 0)) * 10) / 10,
            max: 100,
          },
          { name: '活跃邮箱', value: percent(active, allMailboxes, 0), max: 100 },
          { name: '邮箱可用率', value: percent(sum('usable'), allMailboxes), max: 100 },
        ],
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
