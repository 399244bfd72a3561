import { createHash } from 'node:crypto';
import type { ClientServer, ClientSettingsData } from '@youju/contract';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import { findMailboxByAddress, findMailboxById } from '../../db/repositories/mailbox-repo.js';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import type { RateLimits } from '../../lib/rate-limiter.js';
import { type AuthContext, mayManage } from '../sessions/index.js';

export const AUTOCONFIG_PATHS = {
  thunderbird: '/.well-known/autoconfig/mail/config-v1.1.xml',
  thunderbirdIspdb: '/mail/config-v1.1.xml',
  autodiscover: '/autodiscover/autodiscover.xml',
  mobileconfig: '/api/user/getMobileConfig',
} as const;

/**
 * Requests for the public documents per source address and minute: a mail client asks a handful of
 * times while an account is set up; more is a scan.
 */
export const AUTOCONFIG_PER_MINUTE = 120;

/** Bytes of an Outlook autodiscover request we read; real ones are a few hundred. */
export const AUTODISCOVER_MAX_BYTES = 16 * 1024;

const NOT_YOURS = '该地址不存在或不属于你，请从地址列表中选择自己的地址';

/** RFC 5321 section 4.1.2 Mailbox, strictly and in ASCII: only what is safe to echo anywhere. */
const ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** An address a client sent us (query string, XML), or null when it is not a plain address. */
export function plainAddress(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const address = value.trim().toLowerCase();
  return address.length <= 254 && ADDRESS.test(address) ? address : null;
}

/** XML 1.0 character data and attribute values (section 2.4): the five markup characters escaped. */
export function xmlEscape(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    // Characters XML 1.0 does not allow at all (section 2.2) are dropped rather than escaped.
    if (
      (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) ||
      code === 0xfffe ||
      code === 0xffff
    ) {
      continue;
    }
    out += '<>&\'"'.includes(char) ? `&#${code};` : char;
  }
  return out;
}

/**
 * The EMailAddress of an Outlook autodiscover request (POX, "Autodiscover for Exchange"), read with
 * a regular expression: no XML parser ever sees the body, so a DOCTYPE or entity (XXE, billion
 * laughs) is inert text. Null when there is none or it is not a plain address.
 */
export function autodiscoverAddress(body: string): string | null {
  const match =
    /<(?:[A-Za-z][\w.-]*:)?EMailAddress\s*>([^<]{1,320})<\/(?:[A-Za-z][\w.-]*:)?EMailAddress\s*>/.exec(
      body.slice(0, AUTODISCOVER_MAX_BYTES),
    );
  return plainAddress(match?.[1]);
}

/** A name-based UUID (RFC 9562 section 5.8 layout) so that a re-downloaded profile replaces the old one. */
function stableUuid(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`.toUpperCase();
}

/**
 * What mail clients are told about this server: the listeners that are on (IMAP, POP3, submission),
 * under MAIL_HOSTNAME, as Thunderbird autoconfig, Outlook autodiscover, an Apple configuration
 * profile and the web's "客户端设置" screen. The public documents never look an address up, so they
 * say nothing about which addresses exist.
 */
export function createMailClientsService(deps: {
  db: Kysely<Database>;
  config: Pick<
    Config,
    | 'mailHostname'
    | 'imapPort'
    | 'imapsPort'
    | 'pop3Port'
    | 'pop3sPort'
    | 'submissionPort'
    | 'submissionsPort'
  >;
  /**
   * Whether a valid certificate is installed: without one the implicit-TLS listeners (IMAPS, POP3S,
   * SUBMISSIONS) are not started, so they are not advertised either.
   */
  tlsReady: () => boolean;
  rateLimits: RateLimits;
}) {
  const { db, config } = deps;
  const publicRequests = deps.rateLimits('autoconfig', 60_000);
  const hostname = config.mailHostname;

  /** Implicit TLS first (RFC 8314 section 3: preferred), then STARTTLS; only listeners that are on. */
  function servers(): ClientServer[] {
    const list: ClientServer[] = [];
    const tls = deps.tlsReady();
    const add = (protocol: ClientServer['protocol'], ssl: number | null, starttls: number | null) => {
      if (ssl !== null && tls) list.push({ protocol, hostname, port: ssl, security: 'SSL' });
      if (starttls !== null) list.push({ protocol, hostname, port: starttls, security: 'STARTTLS' });
    };
    add('imap', config.imapsPort, config.imapPort);
    add('pop3', config.pop3sPort, config.pop3Port);
    add('smtp', config.submissionsPort, config.submissionPort);
    return list;
  }

  /** The address `auth` may see client settings of: a mailbox its own, a user its mailboxes', an admin any. */
  async function ownedAddress(auth: AuthContext, requested: string | undefined) {
    if (auth.role === 'mailbox') {
      const own = await findMailboxById(db, auth.mailboxId ?? -1);
      if (!own) throw ApiError.notFound(NOT_YOURS);
      if (requested !== undefined && requested.trim().toLowerCase() !== own.address.toLowerCase()) {
        throw ApiError.forbidden('邮箱用户只能查看自己地址的客户端设置');
      }
      return own;
    }
    if (requested === undefined || requested.trim() === '')
      throw ApiError.badRequest('请提供邮箱地址 address');
    const address = plainAddress(requested);
    const row = address ? await findMailboxByAddress(db, address) : undefined;
    // One answer for "no such address" and "someone else's": nothing to learn by probing.
    if (!row || !mayManage(auth, row.owner_id)) throw ApiError.notFound(NOT_YOURS);
    return row;
  }

  function thunderbirdXml(emailAddress: unknown): string {
    const address = plainAddress(emailAddress);
    const domain = address ? address.slice(address.indexOf('@') + 1) : hostname;
    const server = (element: 'incomingServer' | 'outgoingServer', entry: ClientServer) =>
      [
        `    <${element} type="${entry.protocol}">`,
        `      <hostname>${xmlEscape(entry.hostname)}</hostname>`,
        `      <port>${entry.port}</port>`,
        `      <socketType>${entry.security}</socketType>`,
        '      <authentication>password-cleartext</authentication>',
        '      <username>%EMAILADDRESS%</username>',
        `    </${element}>`,
      ].join('\n');
    const list = servers();
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<clientConfig version="1.1">',
      `  <emailProvider id="${xmlEscape(hostname)}">`,
      `    <domain>${xmlEscape(domain)}</domain>`,
      `    <displayName>${xmlEscape(hostname)}</displayName>`,
      `    <displayShortName>${xmlEscape(hostname)}</displayShortName>`,
      ...list.filter((entry) => entry.protocol !== 'smtp').map((entry) => server('incomingServer', entry)),
      ...list.filter((entry) => entry.protocol === 'smtp').map((entry) => server('outgoingServer', entry)),
      '  </emailProvider>',
      '</clientConfig>',
      '',
    ].join('\n');
  }

  /** Outlook's POX autodiscover answer ("outlook/responseschema/2006a"). */
  function autodiscoverXml(requestBody: string): string {
    const address = autodiscoverAddress(requestBody);
    const protocol = (entry: ClientServer) =>
      [
        '      <Protocol>',
        `        <Type>${entry.protocol.toUpperCase()}</Type>`,
        `        <Server>${xmlEscape(entry.hostname)}</Server>`,
        `        <Port>${entry.port}</Port>`,
        '        <DomainRequired>off</DomainRequired>',
        ...(address ? [`        <LoginName>${xmlEscape(address)}</LoginName>`] : []),
        '        <SPA>off</SPA>',
        '        <SSL>on</SSL>',
        `        <Encryption>${entry.security === 'SSL' ? 'SSL' : 'TLS'}</Encryption>`,
        '        <AuthRequired>on</AuthRequired>',
        ...(entry.protocol === 'smtp'
          ? ['        <UsePOPAuth>on</UsePOPAuth>', '        <SMTPLast>off</SMTPLast>']
          : []),
        '      </Protocol>',
      ].join('\n');
    // Outlook takes the first protocol of each type it knows; list the preferred ones first.
    return [
      '<?xml version="1.0" encoding="utf-8"?>',
      '<Autodiscover xmlns="http://schemas.microsoft.com/exchange/autodiscover/responseschema/2006">',
      '  <Response xmlns="http://schemas.microsoft.com/exchange/autodiscover/outlook/responseschema/2006a">',
      '    <Account>',
      '      <AccountType>email</AccountType>',
      '      <Action>settings</Action>',
      ...servers().map(protocol),
      '    </Account>',
      '  </Response>',
      '</Autodiscover>',
      '',
    ].join('\n');
  }

  /**
   * An Apple configuration profile (unsigned plist, "com.apple.mail.managed" payload) for one
   * address: the incoming server (IMAP, else POP3) and SMTP submission. No password inside: the file
   * is easily forwarded or left in a downloads folder, and iOS and macOS ask for the password when
   * the profile is installed.
   */
  function mobileconfig(address: string): string {
    const list = servers();
    const incoming =
      list.find((entry) => entry.protocol === 'imap') ?? list.find((entry) => entry.protocol === 'pop3');
    const outgoing = list.find((entry) => entry.protocol === 'smtp');
    if (!incoming || !outgoing) {
      throw ApiError.conflict('服务器没有开启 IMAP/POP3 或 SMTP 提交端口，无法生成描述文件，请联系管理员');
    }
    const text = (value: string) => `<string>${xmlEscape(value)}</string>`;
    const identifier = `youju.mail.${hostname}.${address}`;
    const payloadUuid = stableUuid(`payload:${identifier}`);
    const profileUuid = stableUuid(`profile:${identifier}`);
    const entries: [string, string][] = [
      ['EmailAccountDescription', text(address)],
      ['EmailAccountName', text(address)],
      ['EmailAccountType', text(incoming.protocol === 'imap' ? 'EmailTypeIMAP' : 'EmailTypePOP')],
      ['EmailAddress', text(address)],
      ['IncomingMailServerAuthentication', text('EmailAuthPassword')],
      ['IncomingMailServerHostName', text(incoming.hostname)],
      ['IncomingMailServerPortNumber', `<integer>${incoming.port}</integer>`],
      // Apple's UseSSL covers both: implicit TLS on 993/995, STARTTLS on the plain ports.
      ['IncomingMailServerUseSSL', '<true/>'],
      ['IncomingMailServerUsername', text(address)],
      ['OutgoingMailServerAuthentication', text('EmailAuthPassword')],
      ['OutgoingMailServerHostName', text(outgoing.hostname)],
      ['OutgoingMailServerPortNumber', `<integer>${outgoing.port}</integer>`],
      ['OutgoingMailServerUseSSL', '<true/>'],
      ['OutgoingMailServerUsername', text(address)],
      ['OutgoingPasswordSameAsIncomingPassword', '<true/>'],
      ['PayloadDescription', text(`邮箱 ${address} 的收发信设置`)],
      ['PayloadDisplayName', text(address)],
      ['PayloadIdentifier', text(`${identifier}.account`)],
      ['PayloadType', text('com.apple.mail.managed')],
      ['PayloadUUID', text(payloadUuid)],
      ['PayloadVersion', '<integer>1</integer>'],
    ];
    const dict = (pairs: [string, string][], indent: string) =>
      pairs.map(([key, value]) => `${indent}<key>${key}</key>\n${indent}${value}`).join('\n');
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
      '<plist version="1.0">',
      '<dict>',
      '  <key>PayloadContent</key>',
      '  <array>',
      '    <dict>',
      dict(entries, '      '),
      '    </dict>',
      '  </array>',
      dict(
        [
          [
            'PayloadDescription',
            text(`在 iPhone、iPad 和 Mac 的“邮件”中添加 ${address}（安装时输入邮箱密码）`),
          ],
          ['PayloadDisplayName', text(`邮箱 ${address}`)],
          ['PayloadIdentifier', text(identifier)],
          ['PayloadRemovalDisallowed', '<false/>'],
          ['PayloadType', text('Configuration')],
          ['PayloadUUID', text(profileUuid)],
          ['PayloadVersion', '<integer>1</integer>'],
        ],
        '  ',
      ),
      '</dict>',
      '</plist>',
      '',
    ].join('\n');
  }

  return {
    servers,

    /** Counts a request for a public document from `ip`; 429 beyond AUTOCONFIG_PER_MINUTE. */
    async admitPublic(ip: string): Promise<void> {
      if ((await publicRequests.hit(ip)) > AUTOCONFIG_PER_MINUTE) {
        throw ApiError.tooMany('自动配置请求过于频繁，请一分钟后再试', 60);
      }
    },

    thunderbirdXml,
    autodiscoverXml,

    async clientSettings(auth: AuthContext, requested: string | undefined): Promise<ClientSettingsData> {
      const row = await ownedAddress(auth, requested);
      return {
        address: row.address,
        username: row.address,
        hostname,
        servers: servers(),
        canLogin: row.kind === 'account' && row.password_hash !== null,
        autoconfigPath: AUTOCONFIG_PATHS.thunderbird,
        autodiscoverPath: AUTOCONFIG_PATHS.autodiscover,
        mobileconfigPath: AUTOCONFIG_PATHS.mobileconfig,
      };
    },

    /** The profile of an address the caller may see, and a file name for it. */
    async mobileconfig(auth: AuthContext, requested: string | undefined) {
      const row = await ownedAddress(auth, requested);
      return { filename: `${row.address}.mobileconfig`, content: mobileconfig(row.address) };
    },
  };
}

export type MailClientsService = ReturnType<typeof createMailClientsService>;
