import type { DashboardView } from '@youju/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { DAY } from '../../lib/time.js';
import type { AuthContext } from '../sessions/session-service.js';

const DAYS = 30;

/** Where the figures come from: the whole system (administrators) or one owner's part. */
type Scope = { kind: 'system' } | { kind: 'own'; ownerId: number };

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
 * getDashboard (API.md "User"): totals, a 30-day daily series and the health radar. Every figure is
 * one aggregate over an indexed column (messages.received_at, mailboxes.owner_id, domains.owner_id),
 * so the cost grows with the last 30 days' mail, not with the whole store.
 */
export function createDashboardService(db: Kysely<Database>) {
  function messages(scope: Scope) {
    const base = db.selectFrom('messages').innerJoin('mailboxes', 'mailboxes.id', 'messages.mailbox_id');
    return scope.kind === 'own' ? base.where('mailboxes.owner_id', '=', scope.ownerId) : base;
  }
  function mailboxes(scope: Scope) {
    const base = db.selectFrom('mailboxes');
    return scope.kind === 'own' ? base.where('owner_id', '=', scope.ownerId) : base;
  }
  function domains(scope: Scope) {
    const base = db.selectFrom('domains');
    return scope.kind === 'own' ? base.where('owner_id', '=', scope.ownerId) : base;
  }

  /**
   * Outbound figures from the sent folder and the per-recipient queue (migration 015): messages
   * sent per day, recipients still waiting, and how the window's deliveries ended.
   */
  async function outbound(scope: Scope, since: number, offset: number) {
    let sent = db.selectFrom('sent_messages').where('sent_messages.created_at', '>=', since);
    if (scope.kind === 'own') sent = sent.where('sent_messages.account_id', '=', scope.ownerId);
    const day = sql<number>`(${sql.ref('sent_messages.created_at')} + ${sql.lit(offset)}) / ${sql.lit(DAY)}`;
    let queue = db
      .selectFrom('outbound_queue')
      .innerJoin('sent_messages', 'sent_messages.id', 'outbound_queue.sent_id');
    if (scope.kind === 'own') queue = queue.where('sent_messages.account_id', '=', scope.ownerId);
    const [daily, waiting, outcomes] = await Promise.all([
      sent
        .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('count')])
        .groupBy(day)
        .execute(),
      queue
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('outbound_queue.status', 'in', ['queued', 'sending', 'retrying'])
        .executeTakeFirstOrThrow(),
      queue
        .select(['outbound_queue.status', (eb) => eb.fn.countAll<number>().as('count')])
        .where('sent_messages.created_at', '>=', since)
        .where('outbound_queue.status', 'in', ['delivered', 'failed'])
        .groupBy('outbound_queue.status')
        .execute(),
    ]);
    const dailySent = new Map(daily.map((row) => [Number(row.day), Number(row.count)]));
    const outcome = (status: string) => Number(outcomes.find((row) => row.status === status)?.count ?? 0);
    return {
      sentInWindow: [...dailySent.values()].reduce((total, count) => total + count, 0),
      queueLength: Number(waiting.count),
      deliveryFailures: outcome('failed'),
      delivered: outcome('delivered'),
      attempted: outcome('delivered') + outcome('failed'),
      dailySent,
    };
  }

  return {
    async view(auth: AuthContext, now = Date.now()): Promise<DashboardView> {
      if (auth.role === 'mailbox' || auth.accountId === null)
        throw ApiError.forbidden('仪表盘只对系统账号开放');
      const scope: Scope =
        auth.role === 'admin' ? { kind: 'system' } : { kind: 'own', ownerId: auth.accountId };
      const { today, offset } = dayStart(now);
      const since = today - (DAYS - 1) * DAY;
      const day = sql<number>`(${sql.ref('messages.received_at')} + ${sql.lit(offset)}) / ${sql.lit(DAY)}`;

      const [daily, today30, mailboxRows, domainRows, activeRow, sent] = await Promise.all([
        messages(scope)
          .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('count')])
          .where('messages.received_at', '>=', since)
          .groupBy(day)
          .execute(),
        messages(scope)
          .select([
            (eb) => eb.fn.countAll<number>().as('total'),
            (eb) =>
              eb.fn.sum<number>(eb.case().when('messages.spam', '=', 1).then(1).else(0).end()).as('spam'),
          ])
          .where('messages.received_at', '>=', since)
          .executeTakeFirstOrThrow(),
        mailboxes(scope)
          .select([
            'kind',
            (eb) => eb.fn.countAll<number>().as('count'),
            (eb) => eb.fn.sum<number>('used_bytes').as('used'),
            (eb) =>
              eb.fn
                .sum<number>(eb.case().when('quota_bytes', '>', 0).then(eb.ref('quota_bytes')).else(0).end())
                .as('quota'),
            (eb) =>
              eb.fn
                .sum<number>(eb.case().when('quota_bytes', '>', 0).then(eb.ref('used_bytes')).else(0).end())
                .as('usedWithQuota'),
            (eb) =>
              eb.fn
                .sum<number>(
                  eb
                    .case()
                    .when(
                      eb.and([
                        eb('enabled', '=', 1),
                        eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]),
                      ]),
                    )
                    .then(1)
                    .else(0)
                    .end(),
                )
                .as('usable'),
          ])
          .groupBy('kind')
          .execute(),
        domains(scope)
          .select(['dns_status', (eb) => eb.fn.countAll<number>().as('count')])
          .groupBy('dns_status')
          .execute(),
        messages(scope)
          .select((eb) => eb.fn.count<number>('messages.mailbox_id').distinct().as('active'))
          .where('messages.received_at', '>=', since)
          .executeTakeFirstOrThrow(),
        outbound(scope, since, offset),
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
        scope: scope.kind,
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
          { name: '活跃邮箱', value: percent(Number(activeRow.active), allMailboxes, 0), max: 100 },
          { name: '邮箱可用率', value: percent(sum('usable'), allMailboxes), max: 100 },
        ],
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
