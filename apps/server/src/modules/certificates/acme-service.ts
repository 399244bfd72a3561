import { createPrivateKey, X509Certificate } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AcmeStatus, Certificate } from '@youju/contract';
import type { Kysely } from 'kysely';
import type { AcmeConfig } from '../../config.js';
import type { Engine } from '../../db/database.js';
import { withSessionLock } from '../../db/locks.js';
import {
  deleteAcmeChallenge,
  findAcmeChallenge,
  putAcmeChallenge,
} from '../../db/repositories/acme-challenge-repo.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import type { RateLimits } from '../../lib/rate-limiter.js';
import { AcmeDnsError, publishDnsChallenge } from './acme-dns.js';
import { type AcmeRequest, createAcmeTransport } from './acme-transport.js';
import type { CertificateService } from './certificate-service.js';
import { writeCertificateFiles } from './certificate-store.js';

interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * acme-client, loaded with the first order: with axios and node-forge it is about 12 MiB of heap
 * that a server without ACME (or between renewals) never needs.
 */
const acmeClient = () => import('acme-client');

const DAY_MS = 86_400_000;
const MAX_RETRY_MS = DAY_MS;
/** One order's requests, polls included, end within this (the scheduler retries later). */
const ORDER_DEADLINE_MS = 5 * 60_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** A stored HTTP-01 challenge outlives its order by a little at most (a crash leaves no answer for long). */
const CHALLENGE_TTL_MS = ORDER_DEADLINE_MS + 60_000;
/** How often an authorization or order in progress is asked again (RFC 8555 section 7.5.1). */
const POLL_MS = 1000;
/** "立即续期": at most this many per administrator per window, across processes where the limits are shared. */
const RENEW_NOW_LIMIT = 3;
const RENEW_NOW_WINDOW_MS = 10 * 60_000;

/** What the scheduler remembers between runs and restarts (DATA_DIR/acme/state.json). */
interface AcmeState {
  lastAttemptAt: number | null;
  lastSuccessAt: number | null;
  lastError: string | null;
  failures: number;
  /** set after a failure: no automatic attempt before this (1 h doubling to 24 h) */
  retryAt: number | null;
}

const EMPTY_STATE: AcmeState = {
  lastAttemptAt: null,
  lastSuccessAt: null,
  lastError: null,
  failures: 0,
  retryAt: null,
};

class AbortedError extends Error {}

/** Waits `ms`, or rejects as soon as `signal` aborts (so that close never waits for a poll). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new AbortedError('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Writes `text` whole and renames it into place: a crash leaves the old file or the new one. */
async function writeAtomically(file: string, text: string, mode: number): Promise<void> {
  const temporary = `${file}.tmp-${process.pid}`;
  await writeFile(temporary, text, { mode });
  await chmod(temporary, mode);
  await rename(temporary, file);
}

/** An error as the certificates screen shows it: what went wrong and what to check, in Chinese. */
export function describeAcmeError(error: unknown, directoryUrl: string): string {
  if (error instanceof AcmeDnsError) return error.message;
  const code = (error as { code?: unknown }).code;
  const message = (error as Error)?.message ?? String(error);
  const host = (() => {
    try {
      return new URL(directoryUrl).host;
    } catch {
      return directoryUrl;
    }
  })();
  if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return `无法连接 ACME 服务器 ${host}（${code}），请检查 ACME_DIRECTORY_URL 与网络`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `无法解析 ACME 服务器 ${host} 的域名（${code}）`;
  if (typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code)) {
    return `ACME 服务器 ${host} 的证书不受信任（${code}）；私有 CA 请用 ACME_CA_BUNDLE 指定其根证书`;
  }
  if (/超时|timed? ?out/i.test(message)) return `连接 ACME 服务器 ${host} 超时，请稍后重试`;
  return `ACME 签发失败：${message}`.slice(0, 1000);
}

/**
 * ACME certificates (RFC 8555) for MAIL_HOSTNAME and ACME_HOSTNAMES: one account (its key in
 * DATA_DIR/acme/account.key, 0600), one order for the whole set of names, HTTP-01 answered by the
 * challenge listener (`challengeResponse`) or DNS-01 written through the domain's RFC 2136 settings.
 * The certificate is written in certbot's layout under DATA_DIR/certs/<MAIL_HOSTNAME>/ and the
 * certificate service reloads it into every TLS listener without a restart. A check runs at start
 * and every ACME_CHECK_MS; it renews when fewer than ACME_RENEW_DAYS are left, backs off after a
 * failure, and runs in one process at a time when several share PostgreSQL.
 */
export function createAcmeService(options: {
  config: AcmeConfig | null;
  dataDir: string;
  db: Kysely<Database>;
  engine: Engine;
  certificates: CertificateService;
  rateLimits: RateLimits;
  /** DNS_SERVERS: where DNS-01 finds the zone's authoritative servers (system resolvers when empty) */
  dnsServers?: string[];
  log?: Logger;
  now?: () => number;
}) {
  const { config, certificates } = options;
  const now = options.now ?? Date.now;
  const acmeDir = join(options.dataDir, 'acme');
  const stateFile = join(acmeDir, 'state.json');
  const accountKeyFile = join(acmeDir, 'account.key');
  const directory = config?.hostnames[0] ?? '';
  const renewNowLimit = options.rateLimits('acme-renew-now', RENEW_NOW_WINDOW_MS);
  /** HTTP-01 tokens of the orders in flight → key authorizations (RFC 8555 section 8.3) */
  const tokens = new Map<string, string>();
  let controller = new AbortController();
  let state: AcmeState = { ...EMPTY_STATE };
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  async function loadState(): Promise<void> {
    try {
      const parsed = JSON.parse(await readFile(stateFile, 'utf8')) as Partial<AcmeState>;
      state = { ...EMPTY_STATE, ...parsed };
    } catch {
      state = { ...EMPTY_STATE };
    }
  }

  async function saveState(): Promise<void> {
    await mkdir(acmeDir, { recursive: true, mode: 0o700 });
    await writeAtomically(stateFile, JSON.stringify(state), 0o600);
  }

  async function accountKey(): Promise<Buffer> {
    try {
      return await readFile(accountKeyFile);
    } catch {
      await mkdir(acmeDir, { recursive: true, mode: 0o700 });
      const { crypto: acmeCrypto } = await acmeClient();
      const key = await acmeCrypto.createPrivateEcdsaKey('P-256');
      await writeAtomically(accountKeyFile, key.toString(), 0o600);
      return key;
    }
  }

  /** The managed certificate as loaded now, when it exists. */
  function current(): Certificate | undefined {
    return certificates.list().find((entry) => entry.directory === directory);
  }

  /** When renewal is due: now for a missing, unusable or incomplete certificate. */
  function renewalDueAt(): number {
    if (!config) return Number.POSITIVE_INFINITY;
    const entry = current();
    if (entry?.status !== 'ok' || !entry.notAfter) return now();
    if (!config.hostnames.every((name) => entry.hostnames.includes(name))) return now();
    return Date.parse(entry.notAfter) - config.renewDays * DAY_MS;
  }

  /** The wait after `failures` failed attempts: ACME_RETRY_BASE_MS doubled each time, at most a day. */
  function retryDelay(failures: number): number {
    const base = config?.retryBaseMs ?? 0;
    return Math.min(base * 2 ** Math.max(0, failures - 1), MAX_RETRY_MS);
  }

  async function order(acme: AcmeConfig, request: AcmeRequest): Promise<void> {
    const signal = controller.signal;
    const deadline = now() + ORDER_DEADLINE_MS;
    const { Client, crypto: acmeCrypto, forge } = await acmeClient();
    const client = new Client({ directoryUrl: acme.directoryUrl, accountKey: await accountKey() });
    // acme-client 5.4.0 sends every request through its HttpClient's `request`: ours (see acme-transport.ts).
    (client as unknown as { http: { request: AcmeRequest } }).http.request = request;
    await client.createAccount({ termsOfServiceAgreed: true, contact: [`mailto:${acme.email}`] });
    const created = await client.createOrder({
      identifiers: acme.hostnames.map((value) => ({ type: 'dns', value })),
    });
    const cleanups: Array<() => Promise<void>> = [];
    try {
      for (const authorization of await client.getAuthorizations(created)) {
        if (authorization.status === 'valid') continue;
        const challenge = authorization.challenges.find((entry) => entry.type === acme.challenge);
        if (!challenge) {
          throw new Error(`CA 没有为 ${authorization.identifier.value} 提供 ${acme.challenge} 验证方式`);
        }
        const keyAuthorization = await client.getChallengeKeyAuthorization(challenge);
        if (challenge.type === 'http-01') {
          const token = (challenge as { token: string }).token;
          tokens.set(token, keyAuthorization);
          // Several processes on PostgreSQL: the CA's GET may reach another one, which reads the table.
          if (options.engine === 'postgres') {
            await putAcmeChallenge(options.db, {
              token,
              keyAuthorization,
              expiresAt: now() + CHALLENGE_TTL_MS,
            });
          }
          cleanups.push(async () => {
            tokens.delete(token);
            if (options.engine === 'postgres') await deleteAcmeChallenge(options.db, token, now());
          });
        } else {
          // For *.example.com the record is _acme-challenge.example.com (RFC 8555 section 8.4).
          cleanups.push(
            await publishDnsChallenge(
              options.db,
              authorization.identifier.value,
              keyAuthorization,
              options.dnsServers ?? [],
              signal,
            ),
          );
        }
        await client.completeChallenge(challenge);
      }
      // RFC 8555 section 7.5.1: poll the authorizations until each is valid or one is invalid.
      for (;;) {
        const authorizations = await client.getAuthorizations(created);
        const failed = authorizations.find((entry) => entry.status !== 'valid' && entry.status !== 'pending');
        if (failed) {
          const problem = failed.challenges.find((entry) => entry.type === acme.challenge)?.error;
          const detail = (problem as { detail?: string } | undefined)?.detail ?? failed.status;
          throw new Error(`${failed.identifier.value} 的 ${acme.challenge} 验证失败：${detail}`);
        }
        if (authorizations.every((entry) => entry.status === 'valid')) break;
        if (now() > deadline) throw new Error('CA 长时间未完成验证，稍后重试');
        await pause(POLL_MS, signal);
      }
    } finally {
      for (const cleanup of cleanups) {
        try {
          await cleanup();
        } catch (error) {
          options.log?.warn(`ACME 验证记录清理失败：${(error as Error).message}`);
        }
      }
    }
    // A new key for every certificate; RSA 2048 because many mail clients and MTAs still expect it.
    // The CSR comes from acme-client's node-forge helper: its @peculiar one fails here because
    // mailauth pins an older @peculiar/asn1-schema, and two copies do not share their ASN.1 schemas.
    const [privateKey, csr] = await forge.createCsr(
      { commonName: acme.hostnames[0], altNames: acme.hostnames },
      await acmeCrypto.createPrivateRsaKey(2048),
    );
    let finalized = await client.finalizeOrder(created, csr);
    while (finalized.status !== 'valid') {
      if (finalized.status === 'invalid') throw new Error('CA 拒绝了证书请求（订单无效）');
      if (now() > deadline) throw new Error('CA 长时间未签发证书，稍后重试');
      await pause(POLL_MS, signal);
      finalized = await client.getOrder(finalized);
    }
    const fullchain = await client.getCertificate(finalized);
    const [leaf, ...chain] = acmeCrypto.splitPemChain(fullchain);
    if (!leaf) throw new Error('CA 返回的证书为空');
    // Refuse what would not be served rather than overwrite a working certificate with it.
    const parsed = new X509Certificate(leaf);
    if (!parsed.checkPrivateKey(createPrivateKey(privateKey))) {
      throw new Error('CA 返回的证书与私钥不匹配');
    }
    // certbot's layout: fullchain.pem is cert.pem followed by chain.pem.
    const certPem = `${leaf.trim()}\n`;
    const chainPem = chain.map((pem) => `${pem.trim()}\n`).join('');
    await writeCertificateFiles(certificates.certsDir, directory, {
      privkey: privateKey.toString(),
      cert: certPem,
      chain: chainPem,
      fullchain: certPem + chainPem,
    });
  }

  /** One attempt (renewal due, or forced by an administrator), recorded in the state. */
  async function attempt(force: boolean): Promise<void> {
    if (!config || stopped) return;
    if (!force && state.retryAt !== null && state.retryAt > now()) return;
    if (!force && renewalDueAt() > now()) return;
    const acme = config;
    await withSessionLock(options.db, options.engine, `acme:${directory}`, async () => {
      // Another process may have renewed while this one waited: look at the files again.
      if (options.engine === 'postgres') await certificates.reload();
      if (!force && renewalDueAt() > now()) return;
      state = { ...state, lastAttemptAt: now() };
      const transport = createAcmeTransport({
        caBundle: acme.caBundle,
        timeoutMs: REQUEST_TIMEOUT_MS,
        signal: controller.signal,
      });
      try {
        await order(acme, transport.request);
        state = { ...state, lastSuccessAt: now(), lastError: null, failures: 0, retryAt: null };
        await saveState();
        await certificates.reload();
        options.log?.info(`ACME 证书已签发：${acme.hostnames.join(', ')}`);
      } catch (error) {
        if (controller.signal.aborted) return;
        const failures = state.failures + 1;
        const lastError = describeAcmeError(error, acme.directoryUrl);
        state = { ...state, lastError, failures, retryAt: now() + retryDelay(failures) };
        await saveState();
        options.log?.warn(`ACME 证书申请失败（第 ${failures} 次）：${lastError}`);
      } finally {
        transport.close();
      }
    });
  }

  function arm(): void {
    if (stopped || !config) return;
    if (timer) clearTimeout(timer);
    const delay =
      state.retryAt !== null ? Math.max(0, Math.min(state.retryAt - now(), config.checkMs)) : config.checkMs;
    timer = setTimeout(() => void run(false), delay);
    timer.unref();
  }

  function run(force: boolean): Promise<void> {
    if (running) return running;
    running = attempt(force)
      .catch((error: unknown) => options.log?.warn(`ACME 检查出错：${(error as Error).message}`))
      .finally(() => {
        running = null;
        arm();
      });
    return running;
  }

  function status(): AcmeStatus {
    const entry = current();
    const nextRenewalAt =
      state.retryAt !== null && state.failures > 0 ? state.retryAt : Math.max(renewalDueAt(), now());
    const iso = (value: number | null) => (value === null ? null : new Date(value).toISOString());
    return {
      state: running
        ? 'renewing'
        : state.failures > 0
          ? 'failed'
          : entry?.status === 'ok'
            ? 'valid'
            : 'pending',
      hostnames: config?.hostnames ?? [],
      challenge: config?.challenge ?? 'http-01',
      lastAttemptAt: iso(state.lastAttemptAt),
      lastSuccessAt: iso(state.lastSuccessAt),
      lastError: state.lastError,
      nextRenewalAt: iso(nextRenewalAt),
    };
  }

  return {
    enabled: config !== null,

    /** Loads the state and runs the first check soon (after the listeners are up). */
    async start(): Promise<void> {
      if (!config) return;
      stopped = false;
      if (controller.signal.aborted) controller = new AbortController();
      await loadState();
      timer = setTimeout(() => void run(false), 0);
      timer.unref();
    },

    /** Ends the timer and any order in flight (its requests and polls abort), then waits for it. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      controller.abort();
      await running;
    },

    /**
     * For the HTTP-01 listener: the key authorization for `token`, or null (RFC 8555 section 8.3).
     * This process's orders from memory; on PostgreSQL any process's from the acme_challenges table,
     * so the listener of every process behind a load balancer can answer the CA. Asked whatever this
     * process's own ACME settings are: the challenge server runs only where HTTP-01 is configured.
     */
    async challengeResponse(token: string): Promise<string | null> {
      const local = tokens.get(token);
      if (local !== undefined) return local;
      if (options.engine !== 'postgres') return null;
      return findAcmeChallenge(options.db, token, now());
    },

    /** Waits for the check in flight, if any (tests). */
    async settled(): Promise<void> {
      await running;
    },

    /** getCertificates: every folder, marked ACME or manual, with the ACME status on the managed one. */
    list(): Certificate[] {
      const listed: Certificate[] = certificates
        .list()
        .map((entry) =>
          config && entry.directory === directory
            ? { ...entry, source: 'acme' as const, acme: status() }
            : { ...entry, source: 'manual' as const },
        );
      if (config && !listed.some((entry) => entry.directory === directory)) {
        // Not issued yet: still shown, so the screen tells what happens and what went wrong.
        listed.unshift({
          directory,
          hostnames: config.hostnames,
          notAfter: null,
          status: 'missing',
          detail: '证书尚未由 ACME 签发',
          source: 'acme',
          acme: status(),
        });
      }
      return listed;
    },

    /**
     * 立即续期 (administrators): starts an attempt now, whatever the dates and the backoff say.
     * Limited per administrator (`accountId`): one cannot use up another's tries; the CA's own rate
     * limits and the single order in flight bound the total.
     */
    async renewNow(accountId: number): Promise<Certificate[]> {
      if (!config) throw ApiError.conflict('未启用 ACME 自动证书（需要设置 ACME_EMAIL），无法立即续期');
      if ((await renewNowLimit.hit(`admin:${accountId}`)) > RENEW_NOW_LIMIT) {
        throw ApiError.tooMany(
          `立即续期过于频繁，请 ${RENEW_NOW_WINDOW_MS / 60_000} 分钟后再试（CA 也限制签发次数）`,
          RENEW_NOW_WINDOW_MS / 1000,
        );
      }
      if (!running && !stopped) {
        if (timer) clearTimeout(timer);
        void run(true);
      }
      return this.list();
    },
  };
}

export type AcmeService = ReturnType<typeof createAcmeService>;
