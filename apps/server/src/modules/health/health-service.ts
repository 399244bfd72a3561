import { createHash, timingSafeEqual } from 'node:crypto';
import { statfs } from 'node:fs/promises';
import { isIP } from 'node:net';
import type { Kysely } from 'kysely';
import { pingDatabase } from '../../db/ping.js';
import { countWaitingDeliveriesByStatus } from '../../db/repositories/outbound-queue-repo.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import type { OutboundWaitingStatus } from '../../lib/metrics.js';

/** When /readyz calls the process ready; see README.md ("Health and metrics"). */
export const READINESS = {
  /** the database must answer `select 1` within this */
  databaseTimeoutMs: 2_000,
  /** free space of the data directory's file system, for an unprivileged user: at least this many bytes … */
  minFreeBytes: 100 * 1024 * 1024,
  /** … and at least this share of the file system */
  minFreeRatio: 0.01,
};

/** An SMTP listener of this process, as the readiness check and the session gauge see it. */
export interface SmtpListenerState {
  listening(): boolean;
  sessions(): number;
}

export interface ReadinessCheck {
  ok: boolean;
  /** why not, or what was measured (shown to operators only, see isOperator) */
  detail: string;
}

export interface Readiness {
  ready: boolean;
  /** the names of the checks that failed, empty when ready */
  failed: Array<'database' | 'smtp' | 'disk'>;
  checks: { database: ReadinessCheck; smtp: ReadinessCheck; disk: ReadinessCheck };
}

/** Who asks for /metrics or /readyz, as the service needs to know. */
export interface OperatorRequest {
  ip: string;
  authorization?: string | undefined;
  /** the request carries X-Forwarded-For or Forwarded (it came through a proxy) */
  forwarded: boolean;
}

/** What statfs reports that the disk check reads (injectable for tests). */
export interface FileSystemStats {
  /** free blocks an unprivileged user may use */
  bavail: number;
  blocks: number;
  bsize: number;
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
function isLoopback(ip: string): boolean {
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIP(address) === 4) return address.startsWith('127.');
  return address === '::1';
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

const MIB = 1024 * 1024;

/**
 * Liveness, readiness and who may read the metrics. Load balancers ask /healthz and /readyz;
 * Prometheus scrapes /metrics, whose gauges read this service too (SMTP sessions, queue depth).
 */
/** How long one run of the readiness checks answers every /readyz (see `readiness`). */
const READINESS_REUSE_MS = 1000;

export function createHealthService(deps: {
  db: Kysely<Database>;
  dataDir: string;
  metricsToken: string | null;
  thresholds?: Partial<typeof READINESS>;
  fileSystemStats?: (path: string) => Promise<FileSystemStats>;
}) {
  const { db, dataDir } = deps;
  const thresholds = { ...READINESS, ...deps.thresholds };
  const fileSystemStats = deps.fileSystemStats ?? ((path: string) => statfs(path));
  const expectedToken = deps.metricsToken === null ? null : sha256(deps.metricsToken);
  const smtpListeners = new Set<SmtpListenerState>();
  let lastReadiness: { at: number; result: Promise<Readiness> } | null = null;

  async function checkDatabase(): Promise<ReadinessCheck> {
    const failure = await pingDatabase(db, thresholds.databaseTimeoutMs);
    return failure === null ? { ok: true, detail: 'answered' } : { ok: false, detail: failure };
  }

  function checkSmtp(): ReadinessCheck {
    if (smtpListeners.size === 0) return { ok: false, detail: 'no SMTP listener started in this process' };
    const listening = [...smtpListeners].filter((listener) => listener.listening()).length;
    return listening === smtpListeners.size
      ? { ok: true, detail: `${listening} listening` }
      : { ok: false, detail: `${smtpListeners.size - listening} of ${smtpListeners.size} not listening` };
  }

  async function checkDisk(): Promise<ReadinessCheck> {
    let stats: FileSystemStats;
    try {
      stats = await fileSystemStats(dataDir);
    } catch (error) {
      return { ok: false, detail: `statfs failed: ${(error as Error).message}` };
    }
    const freeBytes = stats.bavail * stats.bsize;
    const freeRatio = stats.blocks > 0 ? stats.bavail / stats.blocks : 0;
    const detail = `${Math.floor(freeBytes / MIB)} MiB free (${(freeRatio * 100).toFixed(1)} %)`;
    const ok = freeBytes >= thresholds.minFreeBytes && freeRatio >= thresholds.minFreeRatio;
    return {
      ok,
      detail: ok
        ? detail
        : `${detail}, below ${Math.floor(thresholds.minFreeBytes / MIB)} MiB or ${thresholds.minFreeRatio * 100} %`,
    };
  }

  function isOperator(request: OperatorRequest): boolean {
    if (isLoopback(request.ip) && !request.forwarded) return true;
    const presented = /^Bearer\s+(.+)$/i.exec(request.authorization ?? '')?.[1]?.trim();
    // Compared as SHA-256 digests with timingSafeEqual: equal lengths, and the time taken says
    // nothing about how much of the token was right.
    return (
      expectedToken !== null && presented !== undefined && timingSafeEqual(sha256(presented), expectedToken)
    );
  }

  return {
    thresholds,

    /**
     * Whether the caller may see the details of the readiness checks (database errors name hosts
     * and users, the disk check the free space): the same callers as the metrics.
     */
    isOperator,

    /**
     * Registers an SMTP listener (smtp/smtp-server.ts); the returned function forgets it. Until one
     * is registered, the process is not ready: it does not take mail.
     */
    trackSmtpListener(listener: SmtpListenerState): () => void {
      smtpListeners.add(listener);
      return () => smtpListeners.delete(listener);
    },

    smtpSessions(): number {
      let sessions = 0;
      for (const listener of smtpListeners) sessions += listener.sessions();
      return sessions;
    },

    async outboundQueueDepth(): Promise<Record<OutboundWaitingStatus, number>> {
      const depth = { queued: 0, sending: 0, retrying: 0 };
      for (const row of await countWaitingDeliveriesByStatus(db)) {
        if (row.status === 'queued' || row.status === 'sending' || row.status === 'retrying') {
          depth[row.status] = row.count;
        }
      }
      return depth;
    },

    /**
     * The three checks at once; never throws. /readyz is open to anyone (and past the blacklist),
     * so callers within READINESS_REUSE_MS share one run of the checks: a flood of probes costs one
     * database round trip and one statfs a second, not one each.
     */
    readiness(): Promise<Readiness> {
      const now = Date.now();
      if (lastReadiness && now - lastReadiness.at < READINESS_REUSE_MS) return lastReadiness.result;
      const result = (async () => {
        const [database, disk] = await Promise.all([checkDatabase(), checkDisk()]);
        const checks = { database, smtp: checkSmtp(), disk };
        const failed = (['database', 'smtp', 'disk'] as const).filter((name) => !checks[name].ok);
        return { ready: failed.length === 0, failed, checks };
      })();
      lastReadiness = { at: now, result };
      return result;
    },

    /**
     * Lets a loopback client (a Prometheus or an agent on this machine) read the metrics, or anyone
     * with METRICS_TOKEN as a bearer token; refuses everyone else with 403. A request that came
     * through a proxy (it carries X-Forwarded-For or Forwarded) is not a loopback client even when
     * the proxy runs on this machine and is not in TRUSTED_PROXIES: otherwise a reverse proxy on
     * localhost would publish the metrics to the world.
     */
    authorizeMetrics(request: OperatorRequest): void {
      if (isOperator(request)) return;
      throw ApiError.forbidden(
        expectedToken
          ? '无权读取监控指标：请从本机访问，或在 Authorization 头中携带正确的 METRICS_TOKEN'
          : '无权读取监控指标：只允许从本机访问；如需远程采集，请设置 METRICS_TOKEN 并以 Bearer 方式携带',
      );
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
