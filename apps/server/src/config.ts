import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_PERMISSION_KEY, permissionKeyBytes } from '@youju/contract';

/** The environment variables (listed in the root README.md), validated once at start. */
export interface Config {
  port: number;
  host: string;
  smtpPort: number;
  /** SMTPS_PORT: implicit-TLS SMTP (RFC 8314 section 3.3), e.g. 465; null = off */
  smtpsPort: number | null;
  /** HTTPS_PORT: the API and web client over TLS with the certificate service; null = off */
  httpsPort: number | null;
  /**
   * The mail-client listeners (null = off, `0` in the environment turns one off): IMAP_PORT (STARTTLS,
   * default 1143), IMAPS_PORT (implicit TLS, unset = off), POP3_PORT (STLS, default 1110), POP3S_PORT
   * (unset = off), SUBMISSION_PORT (SMTP submission with STARTTLS, RFC 6409, default 1587) and
   * SUBMISSIONS_PORT (submission over implicit TLS, RFC 8314, unset = off)
   */
  imapPort: number | null;
  imapsPort: number | null;
  pop3Port: number | null;
  pop3sPort: number | null;
  submissionPort: number | null;
  submissionsPort: number | null;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  mailHostname: string;
  initAdminUser: string | null;
  initAdminPassword: string | null;
  dnsServers: string[];
  /**
   * PUBLIC_IP: this server's public addresses (comma-separated) for the MAIL_HOSTNAME check, when
   * it sits behind NAT; empty = the addresses of the local network interfaces
   */
  publicIps: string[];
  /** the DNS providers' HTTP APIs that setDNS calls (modules/dns) */
  dnsApi: DnsApiConfig;
  relayUrl: string | null;
  permissionKey: string;
  /** where the built web client lives; null = API only */
  webRoot: string | null;
  logLevel: string;
  /** the outbound queue (modules/sending); the variables exist for tests and unusual networks */
  outbound: OutboundConfig;
  /**
   * TRUSTED_PROXIES: reverse proxies (addresses or CIDR ranges) whose X-Forwarded-For is believed;
   * empty = the socket peer is the client
   */
  trustedProxies: string[];
  /**
   * METRICS_TOKEN: a client sending `Authorization: Bearer <token>` may read /metrics from
   * anywhere; null = only loopback clients may
   */
  metricsToken: string | null;
  /** BACKUP_CHECK_MS: how often the process looks whether a scheduled backup is due (tests) */
  backupCheckMs: number;
  /** webhooks and Telegram (modules/webhooks) */
  webhooks: WebhookConfig;
  /** ACME certificates (modules/certificates/acme-*): null when ACME_EMAIL is unset */
  acme: AcmeConfig | null;
}

export interface AcmeConfig {
  /** ACME_EMAIL: the account's contact (RFC 8555 section 7.3) */
  email: string;
  /** MAIL_HOSTNAME first, then ACME_HOSTNAMES: one certificate, one order, all names as SANs */
  hostnames: string[];
  /** ACME_DIRECTORY_URL: the CA's directory (RFC 8555 section 7.1.1); Let's Encrypt by default */
  directoryUrl: string;
  /** ACME_HTTP_PORT: where the HTTP-01 responder listens (80); null = HTTP-01 off */
  httpPort: number | null;
  /** ACME_CHALLENGE: http-01 (default) or dns-01 (through the domain's RFC 2136 settings) */
  challenge: 'http-01' | 'dns-01';
  /** ACME_CA_BUNDLE: extra PEM roots trusted for the directory (a private or test CA); null = system roots */
  caBundle: string | null;
  /** ACME_RENEW_DAYS: renew when fewer days than this are left (30) */
  renewDays: number;
  /** ACME_CHECK_MS: how often the renewal check runs (12 h) */
  checkMs: number;
  /** ACME_RETRY_BASE_MS: the wait after the first failure (1 h), doubled after each further one, at most 24 h */
  retryBaseMs: number;
}

export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE=1: targets on loopback, private or link-local addresses are allowed */
  allowPrivate: boolean;
  /** TELEGRAM_API_URL: the Telegram Bot API (tests point it at a local stand-in) */
  telegramApiUrl: string;
  /** PUBLIC_URL: the web client's address as people open it, for links in Telegram messages */
  publicUrl: string;
  /** WEBHOOK_POLL_MS: how often the worker looks for due deliveries (new mail also wakes it) */
  pollMs: number;
  /** WEBHOOK_RETRY_BASE_MS: the wait after the first failure, doubled after each further one */
  retryBaseMs: number;
  /** WEBHOOK_MAX_AGE_MS: after this long without success a delivery is given up (`failed`) */
  maxAgeMs: number;
  /** WEBHOOK_TIMEOUT_MS: how long one POST may take, connection to last byte */
  timeoutMs: number;
  /** WEBHOOK_LEASE_MS: how long a claimed delivery stays with a process before another may take it */
  leaseMs: number;
}

/**
 * Base URLs of the DNS providers' APIs: ALIDNS_API_URL, DNSPOD_API_URL, CLOUDFLARE_API_URL. Tests
 * point them at local stand-ins; plain http is accepted only for loopback, so a credential never
 * crosses a network in the clear.
 */
export interface DnsApiConfig {
  alidnsUrl: string;
  dnspodUrl: string;
  cloudflareUrl: string;
}

export interface OutboundConfig {
  /** OUTBOUND_PORT: the port of recipients' MX hosts (25, RFC 5321 section 4.5.4.2 … tests use others) */
  port: number;
  /** QUEUE_POLL_MS: how often the delivery worker looks for due rows */
  pollMs: number;
  /** QUEUE_LEASE_MS: how long a claimed row stays with a worker before another may take it over */
  leaseMs: number;
  /** QUEUE_RETRY_DELAYS_MS: waits after the 1st, 2nd … failed attempt (the last one repeats) */
  retryDelaysMs: number[];
  /** QUEUE_MAX_AGE_MS: after this long without success a delivery is given up */
  maxAgeMs: number;
}

/** A bad configuration value: the message names the variable, in one line. */
export class ConfigError extends Error {}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new ConfigError(`${name} 必须是 0 到 65535 之间的端口号，当前为 "${raw}"`);
  }
  return value;
}

/** A port that is off when unset (0 = any free port, for tests). */
function optionalPort(env: NodeJS.ProcessEnv, name: string): number | null {
  const raw = env[name]?.trim();
  return raw ? port(env, name, 0) : null;
}

/** A mail-client listener's port: `fallback` when unset (null = off), and `0` turns it off. */
function listenerPort(env: NodeJS.ProcessEnv, name: string, fallback: number | null): number | null {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  return port(env, name, 0) || null;
}

function optional(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

function dnsServers(raw: string | null): string[] {
  if (!raw) return [];
  return raw.split(',').map((entry) => {
    const server = entry.trim();
    const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d+))?$/.exec(server);
    const plain = /^([0-9.]+)(?::(\d+))?$/.exec(server);
    const address = bracketed?.[1] ?? plain?.[1] ?? server;
    const portText = bracketed?.[2] ?? plain?.[2];
    if (!isIP(address) || (portText !== undefined && (Number(portText) < 1 || Number(portText) > 65535))) {
      throw new ConfigError(`DNS_SERVERS 的每一项必须是 IP 或 IP:端口，"${server}" 无效`);
    }
    return server;
  });
}

function trustedProxies(raw: string | null): string[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [address, prefix, ...rest] = entry.split('/');
      const bits = isIP(address ?? '') === 6 ? 128 : 32;
      const prefixValid =
        prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) >= 0 && Number(prefix) <= bits);
      if (!isIP(address ?? '') || !prefixValid || rest.length > 0) {
        throw new ConfigError(`TRUSTED_PROXIES 的每一项必须是 IP 地址或 CIDR 网段，"${entry}" 无效`);
      }
      return entry;
    });
}

/** Short tokens can be guessed, and the metrics tell a lot about the installation. */
function metricsToken(raw: string | null): string | null {
  if (raw !== null && raw.length < 16) {
    throw new ConfigError('METRICS_TOKEN 至少 16 个字符（例如 openssl rand -hex 32 生成的随机串）');
  }
  return raw;
}

function milliseconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigError(`${name} 必须是正整数（毫秒），当前为 "${raw}"`);
  return value;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

function outbound(env: NodeJS.ProcessEnv): OutboundConfig {
  const delaysText = env.QUEUE_RETRY_DELAYS_MS?.trim();
  const retryDelaysMs = delaysText
    ? delaysText.split(',').map((part) => {
        const value = Number(part.trim());
        if (!Number.isInteger(value) || value < 1) {
          throw new ConfigError(`QUEUE_RETRY_DELAYS_MS 必须是逗号分隔的正整数（毫秒），"${part}" 无效`);
        }
        return value;
      })
    : // Exponential-ish backoff over hours, as RFC 5321 section 4.5.4.1 suggests (retry at least
      // 30 minutes apart after the first tries, give up after 4–5 days; we stop after 3).
      [MINUTE_MS, 5 * MINUTE_MS, 15 * MINUTE_MS, HOUR_MS, 2 * HOUR_MS, 4 * HOUR_MS];
  return {
    port: port(env, 'OUTBOUND_PORT', 25) || 25,
    pollMs: milliseconds(env, 'QUEUE_POLL_MS', 10_000),
    leaseMs: milliseconds(env, 'QUEUE_LEASE_MS', 15 * MINUTE_MS),
    retryDelaysMs,
    maxAgeMs: milliseconds(env, 'QUEUE_MAX_AGE_MS', 72 * HOUR_MS),
  };
}

function publicIps(raw: string | null): string[] {
  if (!raw) return [];
  return raw.split(',').map((entry) => {
    const ip = entry.trim();
    if (!isIP(ip)) throw new ConfigError(`PUBLIC_IP 必须是逗号分隔的 IP 地址，"${ip}" 不是`);
    return ip;
  });
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

function apiUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = url(env, name, ['http:', 'https:']);
  if (!raw) return fallback;
  const parsed = new URL(raw);
  if (parsed.protocol === 'http:' && !LOOPBACK_HOSTS.has(parsed.hostname)) {
    throw new ConfigError(`${name} 必须以 https:// 开头（http 只允许本机地址，用于测试）`);
  }
  return raw.replace(/\/+$/, '');
}

function dnsApi(env: NodeJS.ProcessEnv): DnsApiConfig {
  return {
    alidnsUrl: apiUrl(env, 'ALIDNS_API_URL', 'https://alidns.aliyuncs.com'),
    dnspodUrl: apiUrl(env, 'DNSPOD_API_URL', 'https://dnspod.tencentcloudapi.com'),
    cloudflareUrl: apiUrl(env, 'CLOUDFLARE_API_URL', 'https://api.cloudflare.com/client/v4'),
  };
}

function webhooks(env: NodeJS.ProcessEnv, mailHostname: string): WebhookConfig {
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `https://${mailHostname}`;
  return {
    allowPrivate: env.WEBHOOK_ALLOW_PRIVATE === '1' || env.WEBHOOK_ALLOW_PRIVATE === 'true',
    telegramApiUrl: (url(env, 'TELEGRAM_API_URL', ['http:', 'https:']) ?? 'https://api.telegram.org').replace(
      /\/+$/,
      '',
    ),
    publicUrl: publicUrl.replace(/\/+$/, ''),
    pollMs: milliseconds(env, 'WEBHOOK_POLL_MS', 5_000),
    // The first retry comes within a minute, then the waits double (1, 2, 4 … minutes).
    retryBaseMs: milliseconds(env, 'WEBHOOK_RETRY_BASE_MS', 30_000),
    maxAgeMs: milliseconds(env, 'WEBHOOK_MAX_AGE_MS', 24 * HOUR_MS),
    timeoutMs: milliseconds(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
    leaseMs: milliseconds(env, 'WEBHOOK_LEASE_MS', 5 * MINUTE_MS),
  };
}

function url(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | null {
  const raw = optional(env, name);
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} 不是有效的地址`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} 必须以 ${protocols.map((p) => `${p}//`).join(' 或 ')} 开头`);
  }
  return raw;
}

const HOSTNAME_PATTERN = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

function acme(env: NodeJS.ProcessEnv, mailHostname: string): AcmeConfig | null {
  const email = optional(env, 'ACME_EMAIL');
  if (!email) return null;
  if (!/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(email)) {
    throw new ConfigError(`ACME_EMAIL 必须是邮箱地址，当前为 "${email}"`);
  }
  const extra = (optional(env, 'ACME_HOSTNAMES') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase().replace(/\.$/, ''))
    .filter(Boolean);
  const hostnames = [...new Set([mailHostname.toLowerCase().replace(/\.$/, ''), ...extra])];
  for (const name of hostnames) {
    // A CA issues only for public DNS names (RFC 8555 section 7.1.4 identifiers of type dns).
    if (name.length > 253 || !HOSTNAME_PATTERN.test(name)) {
      throw new ConfigError(`ACME_HOSTNAMES 与 MAIL_HOSTNAME 必须是完整域名（可用 *. 通配），"${name}" 无效`);
    }
  }
  if (hostnames.length > 100) throw new ConfigError('ACME_HOSTNAMES 最多 100 个域名');
  const httpPort = listenerPort(env, 'ACME_HTTP_PORT', 80);
  const challengeText = optional(env, 'ACME_CHALLENGE') ?? (httpPort === null ? 'dns-01' : 'http-01');
  if (challengeText !== 'http-01' && challengeText !== 'dns-01') {
    throw new ConfigError(`ACME_CHALLENGE 必须是 http-01 或 dns-01，当前为 "${challengeText}"`);
  }
  if (challengeText === 'http-01' && httpPort === null) {
    throw new ConfigError('ACME_CHALLENGE=http-01 需要 ACME_HTTP_PORT（不能为 0）');
  }
  // RFC 8555 section 7.1.3 and 8.4: a wildcard name can only be validated by DNS-01.
  if (challengeText === 'http-01' && hostnames.some((name) => name.startsWith('*.'))) {
    throw new ConfigError('ACME_HOSTNAMES 含通配域名（*.）时必须设置 ACME_CHALLENGE=dns-01');
  }
  const caBundle = optional(env, 'ACME_CA_BUNDLE');
  if (caBundle && !existsSync(caBundle)) {
    throw new ConfigError(`ACME_CA_BUNDLE 指向的文件不存在："${caBundle}"`);
  }
  const renewText = optional(env, 'ACME_RENEW_DAYS');
  const renewDays = renewText === null ? 30 : Number(renewText);
  if (!Number.isInteger(renewDays) || renewDays < 1 || renewDays > 365) {
    throw new ConfigError(`ACME_RENEW_DAYS 必须是 1 到 365 之间的整数，当前为 "${renewText}"`);
  }
  return {
    email,
    hostnames,
    // RFC 8555 section 6.1: ACME runs over HTTPS only.
    directoryUrl:
      url(env, 'ACME_DIRECTORY_URL', ['https:']) ?? 'https://acme-v02.api.letsencrypt.org/directory',
    httpPort,
    challenge: challengeText,
    caBundle: caBundle ? resolve(caBundle) : null,
    renewDays,
    checkMs: milliseconds(env, 'ACME_CHECK_MS', 12 * HOUR_MS),
    retryBaseMs: milliseconds(env, 'ACME_RETRY_BASE_MS', HOUR_MS),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, defaults: Partial<Config> = {}): Config {
  const permissionKey = env.PERMISSION_KEY || DEFAULT_PERMISSION_KEY;
  try {
    permissionKeyBytes(permissionKey);
  } catch {
    throw new ConfigError('PERMISSION_KEY 必须是 16、24 或 32 字节');
  }
  const initAdminUser = optional(env, 'INIT_ADMIN_USER');
  const initAdminPassword = optional(env, 'INIT_ADMIN_PASSWORD');
  if ((initAdminUser === null) !== (initAdminPassword === null)) {
    throw new ConfigError('INIT_ADMIN_USER 与 INIT_ADMIN_PASSWORD 必须同时设置');
  }
  if (initAdminPassword !== null && initAdminPassword.length < 6) {
    throw new ConfigError('INIT_ADMIN_PASSWORD 至少 6 位');
  }
  const host = env.HOST || '0.0.0.0';
  if (!isIP(host) && host !== 'localhost') {
    throw new ConfigError(`HOST 必须是 IP 地址，当前为 "${host}"`);
  }
  const mailHostname = optional(env, 'MAIL_HOSTNAME') ?? hostname();
  return {
    port: port(env, 'PORT', 8080),
    host,
    smtpPort: port(env, 'SMTP_PORT', 2525),
    smtpsPort: optionalPort(env, 'SMTPS_PORT'),
    httpsPort: optionalPort(env, 'HTTPS_PORT'),
    imapPort: listenerPort(env, 'IMAP_PORT', 1143),
    imapsPort: listenerPort(env, 'IMAPS_PORT', null),
    pop3Port: listenerPort(env, 'POP3_PORT', 1110),
    pop3sPort: listenerPort(env, 'POP3S_PORT', null),
    submissionPort: listenerPort(env, 'SUBMISSION_PORT', 1587),
    submissionsPort: listenerPort(env, 'SUBMISSIONS_PORT', null),
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    mailHostname,
    initAdminUser,
    initAdminPassword,
    dnsServers: dnsServers(optional(env, 'DNS_SERVERS')),
    publicIps: publicIps(optional(env, 'PUBLIC_IP')),
    dnsApi: dnsApi(env),
    relayUrl: url(env, 'RELAY_URL', ['smtp:', 'smtps:']),
    permissionKey,
    webRoot: defaults.webRoot ?? null,
    logLevel: env.LOG_LEVEL || 'info',
    outbound: outbound(env),
    trustedProxies: trustedProxies(optional(env, 'TRUSTED_PROXIES')),
    metricsToken: metricsToken(optional(env, 'METRICS_TOKEN')),
    backupCheckMs: milliseconds(env, 'BACKUP_CHECK_MS', MINUTE_MS),
    webhooks: webhooks(env, mailHostname),
    acme: acme(env, mailHostname),
    ...defaults,
  };
}
