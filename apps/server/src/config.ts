import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_PERMISSION_KEY, permissionKeyBytes } from '@youju/contract';

/** The configuration contract of PRODUCT.md, validated once at start. */
export interface Config {
  port: number;
  host: string;
  smtpPort: number;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  mailHostname: string;
  initAdminUser: string | null;
  initAdminPassword: string | null;
  dnsServers: string[];
  relayUrl: string | null;
  permissionKey: string;
  /** where the built web client lives; null = API only */
  webRoot: string | null;
  logLevel: string;
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
  return {
    port: port(env, 'PORT', 8080),
    host,
    smtpPort: port(env, 'SMTP_PORT', 2525),
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    mailHostname: optional(env, 'MAIL_HOSTNAME') ?? hostname(),
    initAdminUser,
    initAdminPassword,
    dnsServers: dnsServers(optional(env, 'DNS_SERVERS')),
    relayUrl: url(env, 'RELAY_URL', ['smtp:', 'smtps:']),
    permissionKey,
    webRoot: defaults.webRoot ?? null,
    logLevel: env.LOG_LEVEL || 'info',
    ...defaults,
  };
}
