/**
 * Where outbound mail goes: the relay when one is configured, else the recipients' mail
 * exchangers (mx-route.ts), with opportunistic TLS. The SMTP session itself is
 * protocols/smtp/smtp-client.ts.
 */

import type { Resolver } from 'node:dns/promises';
import {
  type AttemptOutcome,
  type ConnectTarget,
  type Transaction,
  transact,
} from '../../protocols/smtp/smtp-client.js';
import { hostAddresses, mailExchangers, RouteError } from './mx-route.js';

export interface RelayTarget {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  pass: string | null;
}

/** `smtp://` or `smtps://[user:pass@]host[:port]` (RELAY_URL or the relayUrl setting). */
export function parseRelayUrl(text: string): RelayTarget {
  const url = new URL(text);
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    // smtps is implicit TLS on 465 (RFC 8314 section 3.3); plain smtp relays usually listen on 25.
    port: url.port ? Number(url.port) : secure ? 465 : 25,
    secure,
    user: url.username ? decodeURIComponent(url.username) : null,
    pass: url.password ? decodeURIComponent(url.password) : null,
  };
}

export interface RemoteDeliveryOptions {
  resolver: Resolver;
  /** port of MX hosts (OUTBOUND_PORT, 25 in production) */
  mxPort: number;
  heloName: string;
  relay: RelayTarget | null;
  signal: AbortSignal;
}

/**
 * Delivers one message to the remote recipients of one domain in one transaction, and answers for
 * each of them in order: through the relay when one is configured, otherwise to the domain's mail
 * exchangers in order of preference, each of their addresses in turn, until one answers (RFC 5321
 * section 5.1).
 */
export async function deliverRemote(
  message: Transaction,
  options: RemoteDeliveryOptions,
): Promise<AttemptOutcome[]> {
  const { relay, signal, heloName } = options;
  const everyone = (outcome: AttemptOutcome) => message.recipients.map(() => outcome);
  if (relay) {
    const { outcomes } = await transact(
      {
        host: relay.host,
        port: relay.port,
        secure: relay.secure,
        servername: relay.host,
        verify: true,
        user: relay.user,
        pass: relay.pass,
      },
      heloName,
      message,
      signal,
    );
    return outcomes;
  }

  const first = message.recipients[0] ?? '';
  const domain = first.slice(first.lastIndexOf('@') + 1).toLowerCase();
  let hosts: string[];
  try {
    hosts = await mailExchangers(options.resolver, domain);
  } catch (error) {
    if (error instanceof RouteError) {
      return everyone(
        error.permanent
          ? { kind: 'permanent', error: error.message, status: error.status }
          : { kind: 'temporary', error: error.message },
      );
    }
    throw error;
  }
  const problems: string[] = [];
  for (const host of hosts) {
    const addresses = await hostAddresses(options.resolver, host);
    if (addresses.length === 0) problems.push(`${host} 没有 A/AAAA 记录`);
    for (const address of addresses) {
      if (signal.aborted) return everyone({ kind: 'temporary', error: '投递因服务停止而中断' });
      const target: ConnectTarget = {
        host: address,
        port: options.mxPort,
        secure: false,
        servername: host,
        verify: false,
      };
      let attempt = await transact(target, heloName, message, signal);
      if (
        attempt.failure?.kind === 'temporary' &&
        /ETLS|TLS/i.test(attempt.failure.error) &&
        !signal.aborted
      ) {
        // Opportunistic TLS must not make delivery worse than plain text (RFC 7435 section 1.3):
        // after a failed handshake, try the same server once more without STARTTLS.
        attempt = await transact({ ...target, ignoreTLS: true }, heloName, message, signal);
      }
      if (!attempt.connectFailed) return attempt.outcomes;
      problems.push(
        `${host}[${address}]：${attempt.failure?.kind === 'temporary' ? attempt.failure.error : ''}`,
      );
    }
  }
  return everyone({
    kind: 'temporary',
    error: `无法连接收件域名 ${domain} 的邮件服务器：${problems.join('；')}`.slice(0, 1000),
  });
}
