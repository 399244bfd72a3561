/**
 * Who really sent a message: SPF (RFC 7208), DKIM (RFC 6376), DMARC (RFC 7489) and ARC (RFC 8617)
 * checked when it arrives over SMTP, with mailauth (the library that signs our outbound mail). The
 * verdict becomes an RFC 8601 `Authentication-Results` header on the stored message, a short record
 * on the message row (the reader's badge) and a decision: refuse (DMARC `p=reject`), Junk
 * (`p=quarantine`, SPF `fail`) or the inbox.
 */

import { Resolver } from 'node:dns/promises';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import type { ARCData, ARCResult, DKIMVerifyResult, DMARCResult, DNSResolver, SPFResult } from 'mailauth';

/**
 * The parts of mailauth that `check` uses, loaded with the first message to check (the store
 * worker's), once. Not mailauth's top module: its `authenticate` is composed here from the same
 * parts (`authenticate` below), because that module loads its BIMI code too, and with it undici,
 * pkijs and asn1js (about 4 MiB of heap in every thread that checks mail), although we never ask
 * for BIMI. mailauth has no `exports` map, so its files are imported by path.
 */
interface MailauthParts {
  dkimVerify: (
    input: Buffer | NodeJS.ReadableStream,
    options: { resolver: DNSResolver; sender?: string },
  ) => Promise<DKIMVerifyResult>;
  spf: (options: {
    ip: string;
    helo?: string;
    sender?: string;
    mta: string;
    resolver: DNSResolver;
  }) => Promise<SPFResult | false>;
  arc: (data: ARCData, options: { resolver: DNSResolver }) => Promise<ARCResult>;
  dmarc: (options: {
    headerFrom: string | string[];
    spfDomains: string[];
    dkimDomains: Array<{ id?: string; domain: string; aligned?: boolean; underSized?: boolean }>;
    arcResult?: ARCResult;
    resolver: DNSResolver;
  }) => Promise<DMARCResult | false>;
  /** libmime's line folding, for the results written into the header field */
  foldLines: (text: string, length: number) => string;
}

let mailauth: Promise<MailauthParts> | null = null;
const loadMailauth = () => {
  mailauth ??= Promise.all([
    import('mailauth/lib/dkim/verify.js'),
    import('mailauth/lib/spf/index.js'),
    import('mailauth/lib/arc/index.js'),
    import('mailauth/lib/dmarc/index.js'),
    // With the rest, not at the module's load: the store worker parses simple mail without
    // libmime (protocols/mime/simple-message.ts), and a thread that checks no mail needs none.
    import('libmime'),
  ]).then(([dkim, spf, arc, dmarc, libmime]) => ({
    dkimVerify: dkim.dkimVerify as MailauthParts['dkimVerify'],
    spf: spf.spf as MailauthParts['spf'],
    arc: arc.arc as MailauthParts['arc'],
    dmarc: dmarc.dmarc as MailauthParts['dmarc'],
    foldLines: libmime.default.foldLines.bind(libmime.default) as MailauthParts['foldLines'],
  }));
  return mailauth;
};

/** What `authenticate` gives: mailauth's own results and the header fields to prepend. */
interface Authentication {
  dkim: DKIMVerifyResult;
  spf: SPFResult | false;
  dmarc: DMARCResult | false;
  /** `Received-SPF` and `Authentication-Results`, each CRLF-terminated */
  headers: string;
}

/**
 * mailauth 4's `authenticate` (lib/mailauth.js) for what we ask of it: DKIM (RFC 6376), SPF
 * (RFC 7208), ARC (RFC 8617) and DMARC (RFC 7489) in that order, the results written as one RFC 8601
 * `Authentication-Results` field after SPF's `Received-SPF` (RFC 7208 section 9.1). Without what we
 * never use: BIMI (disabled), ARC sealing (no key given), the trusted `Received` chain
 * (`trustReceived` off). The same calls with the same arguments, so the same verdicts and fields.
 */
async function authenticate(
  input: Buffer | NodeJS.ReadableStream,
  options: {
    ip: string;
    helo: string;
    sender: string;
    mta: string;
    resolver: DNSResolver;
    spfVerdicts: ReusedAnswers<SPFResult | false>;
  },
): Promise<Authentication> {
  const parts = await loadMailauth();
  const { resolver, ip } = options;
  const mta = options.mta || hostname();
  const dkim = await parts.dkimVerify(input, { resolver, sender: options.sender });
  // No HELO name: the client's address stands for it; an address as HELO takes the bracketed
  // form of an address literal (RFC 5321 section 4.1.3), as mailauth writes it.
  let helo = options.helo || ip;
  if (helo && isIP(helo)) helo = `[${helo}]`;
  const spfKey = `${ip}\0${helo}\0${options.sender}\0${mta}`;
  const spf = await options.spfVerdicts.get(spfKey, () =>
    parts.spf({ ip, helo, sender: options.sender, mta, resolver }),
  );
  // The ARC chain that the DKIM pass collected (mailauth keeps it as a hidden property).
  const arc = await parts.arc((dkim as { arc?: unknown }).arc as ARCData, { resolver });
  const fields: string[] = [];
  const results = dkim.results.map((row) => parts.foldLines(row.info, 160));
  if (spf) {
    results.push(parts.foldLines(spf.info, 160));
    fields.push(spf.header);
  }
  if (arc?.info) results.push(parts.foldLines(arc.info, 160));
  let dmarc: DMARCResult | undefined;
  if (dkim.headerFrom) {
    dmarc =
      (await parts.dmarc({
        headerFrom: dkim.headerFrom,
        spfDomains: spf && spf.status.result === 'pass' && spf.domain ? [spf.domain] : [],
        dkimDomains: dkim.results
          .filter((row) => row.status.result === 'pass')
          .map((row) => ({
            id: row.id,
            domain: row.signingDomain,
            aligned: row.status.aligned,
            underSized: row.status.underSized,
          })),
        arcResult: arc,
        resolver,
      })) || undefined;
    if (dmarc?.info) results.push(parts.foldLines(dmarc.info, 160));
  }
  fields.push(`Authentication-Results: ${mta};\r\n ${results.join(';\r\n ')}`);
  return { dkim, spf, dmarc: dmarc ?? false, headers: `${fields.join('\r\n')}\r\n` };
}

export type AuthResult = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'temperror' | 'permerror';

const RESULTS: ReadonlySet<string> = new Set([
  'pass',
  'fail',
  'softfail',
  'neutral',
  'none',
  'temperror',
  'permerror',
]);

/** What a message row keeps of the checks (JSON in `messages.auth`): the badge and its details. */
export interface MessageAuth {
  spf: AuthResult;
  dkim: AuthResult;
  dmarc: AuthResult;
  /** the domain SPF checked (MAIL FROM's, or HELO's for the null sender) */
  spfDomain?: string;
  /** the domains of the DKIM signatures that verified */
  dkimDomains?: string[];
  /** the From header's domain DMARC judged, and its policy */
  fromDomain?: string;
  policy?: 'none' | 'quarantine' | 'reject';
}

export const UNCHECKED_AUTH: MessageAuth = { spf: 'none', dkim: 'none', dmarc: 'none' };

export interface AuthVerdict {
  auth: MessageAuth;
  /** the `Authentication-Results` header field (and `Received-SPF`), CRLF-terminated */
  header: string;
  /** DMARC failed and the domain asks receivers to reject */
  reject: boolean;
  /** DMARC failed under `p=quarantine`, or SPF failed hard: the message goes to Junk */
  junk: boolean;
}

/** The network side of a message from the internet, as the SMTP listener saw it. */
export interface NetworkOrigin {
  /** the client's address */
  ip: string;
  /** the EHLO/HELO name */
  helo: string;
  /** MAIL FROM ('' for the null sender) */
  mailFrom: string;
}

/** How long a DNS answer (or a failure) is reused: enough for a burst of mail from one sender. */
const CACHE_MS = 60_000;
const CACHE_ENTRIES = 5_000;
/** One DNS question gives up after this long; an unreachable resolver never stalls mail for long. */
const QUERY_TIMEOUT_MS = 1_500;

/**
 * A DNS resolver for mailauth (the shape of `dns.promises.resolve`) through `DNS_SERVERS` (the
 * system's resolvers when empty), with a short cache shared by concurrent questions: a burst of
 * mail from one domain asks once, and a resolver that does not answer costs one timeout a minute.
 */
export function createCachingResolver(servers: string[]): DNSResolver {
  const resolver = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: 1 });
  if (servers.length > 0) resolver.setServers(servers);
  // A failed answer is kept too (NXDOMAIN, no data, timeouts): an unreachable resolver costs one
  // timeout a minute, not one per message.
  const answers = reusedAnswers<Awaited<ReturnType<DNSResolver>>>({ keepFailures: true });
  return (name, type) =>
    answers.get(
      `${type} ${name.toLowerCase()}`,
      () => resolver.resolve(name, type) as ReturnType<DNSResolver>,
    );
}

/** Answers kept for CACHE_MS by key, a pending one shared by concurrent askers. */
interface ReusedAnswers<T> {
  get(key: string, ask: () => Promise<T>): Promise<T>;
}

/**
 * Answers by key for CACHE_MS, at most CACHE_ENTRIES of them: DNS answers (createCachingResolver)
 * and SPF verdicts by client address, HELO name and envelope sender (kept as long as the DNS
 * answers they come from: a burst of mail from one sender is evaluated once; mailauth's evaluation
 * costs 60–120 µs of CPU with every answer cached). A failure is kept only with `keepFailures`.
 * The answers are shared: only read, never changed.
 */
function reusedAnswers<T>(options: { keepFailures: boolean }): ReusedAnswers<T> {
  const cache = new Map<string, { until: number; answer: Promise<T> }>();
  return {
    get(key, ask) {
      const now = Date.now();
      const hit = cache.get(key);
      if (hit && hit.until > now) return hit.answer;
      const answer = ask();
      // Handled here either way, so that a kept failure nobody awaits again is no unhandled rejection.
      answer.catch(() => {
        if (!options.keepFailures && cache.get(key)?.answer === answer) cache.delete(key);
      });
      if (cache.size >= CACHE_ENTRIES) {
        for (const [entry, value] of cache)
          if (value.until <= now || cache.size >= CACHE_ENTRIES) cache.delete(entry);
      }
      cache.set(key, { until: now + CACHE_MS, answer });
      return answer;
    },
  };
}

/**
 * The header fields to store in front of the message, made safe: they quote names from the message
 * (the From domain, DKIM's d=), so no control character may survive and every line break must be
 * CRLF followed by white space (folding) or by the next field this module writes.
 */
function headerFields(text: string): string {
  // Control characters out (DEL too), but tab, CR and LF.
  let visible = '';
  let kept = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 9 && code !== 10 && code !== 13) || code === 0x7f) {
      visible += text.slice(kept, i);
      kept = i + 1;
    }
  }
  visible += text.slice(kept);
  const lines = visible.split(/\r?\n|\r/).filter((line) => line.length > 0);
  const safe = lines.map((line) =>
    /^[ \t]/.test(line) || /^(Authentication-Results|Received-SPF|ARC-[A-Za-z-]+):/i.test(line)
      ? line
      : ` ${line}`,
  );
  return safe.length > 0 ? `${safe.join('\r\n')}\r\n` : '';
}

/** Header fields whose checks read the body: DKIM signatures and ARC sets (RFC 8617). */
const SIGNED = /^(DKIM-Signature|ARC-Seal|ARC-Message-Signature)[ \t]*:/im;

/** The header block is found within this many bytes, or the whole message is read. */
const HEADER_SCAN_BYTES = 256 * 1024;

/**
 * The header block of a message (through its empty line), or null when none ends within
 * HEADER_SCAN_BYTES. Stored mail has CRLF line ends (protocols/smtp/data-guard.ts).
 */
async function headerBlock(source: Buffer | string): Promise<Buffer | null> {
  let bytes: Buffer;
  if (typeof source === 'string') {
    const handle = await open(source, 'r');
    try {
      const buffer = Buffer.alloc(HEADER_SCAN_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      bytes = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } else {
    bytes = source.subarray(0, HEADER_SCAN_BYTES);
  }
  const end = bytes.indexOf('\r\n\r\n');
  if (end >= 0) return bytes.subarray(0, end + 4);
  // A message with no body at all: the whole of it is the header block.
  return typeof source !== 'string' && source.length <= HEADER_SCAN_BYTES ? source : null;
}

function result(value: unknown): AuthResult {
  return typeof value === 'string' && RESULTS.has(value) ? (value as AuthResult) : 'none';
}

/** DKIM over all signatures: one that verifies is a pass; otherwise the first failure's result. */
function dkimResult(rows: Array<{ status?: { result?: string } }>): AuthResult {
  if (rows.length === 0) return 'none';
  if (rows.some((row) => row.status?.result === 'pass')) return 'pass';
  return result(rows[0]?.status?.result);
}

/**
 * The inbound authenticator. `check` reads the message once (a Buffer, or the spool file as a
 * stream) and never throws for the message's sake: DNS trouble is `temperror`, nonsense `permerror`.
 */
export function createInboundAuthenticator(options: { dnsServers: string[]; mailHostname: string }) {
  const resolver = createCachingResolver(options.dnsServers);
  const spfVerdicts = reusedAnswers<SPFResult | false>({ keepFailures: false });
  return {
    async check(source: Buffer | string, origin: NetworkOrigin): Promise<AuthVerdict> {
      // Only a signed message needs its body read (DKIM's body hash); for the rest, SPF and DMARC
      // need the envelope and the From field, so the header block alone is checked (cheaper by far).
      const head = await headerBlock(source);
      const whole = head === null || SIGNED.test(head.toString('latin1'));
      const input = !whole ? head : typeof source === 'string' ? createReadStream(source) : source;
      const outcome = await authenticate(input, {
        ip: origin.ip.replace(/^::ffff:/i, ''),
        helo: origin.helo,
        sender: origin.mailFrom,
        mta: options.mailHostname,
        resolver,
        spfVerdicts,
      });
      const spf = outcome.spf || null;
      const dmarc = outcome.dmarc || null;
      const dkimRows = (outcome.dkim?.results ?? []) as Array<{
        status?: { result?: string };
        signingDomain?: string;
      }>;
      const policy = dmarc ? (dmarc.policy as MessageAuth['policy']) : undefined;
      const auth: MessageAuth = {
        spf: result(spf?.status?.result),
        dkim: dkimResult(dkimRows),
        dmarc: result(dmarc ? dmarc.status?.result : 'none'),
      };
      if (spf?.domain) auth.spfDomain = String(spf.domain).slice(0, 255);
      const signers = dkimRows
        .filter((row) => row.status?.result === 'pass' && row.signingDomain)
        .map((row) => String(row.signingDomain).slice(0, 255));
      if (signers.length > 0) auth.dkimDomains = [...new Set(signers)].slice(0, 5);
      const headerFrom = outcome.dkim?.headerFrom;
      const fromAddress = Array.isArray(headerFrom) ? headerFrom[0] : headerFrom;
      const fromDomain = typeof fromAddress === 'string' ? fromAddress.split('@').pop() : undefined;
      if (fromDomain) auth.fromDomain = fromDomain.toLowerCase().slice(0, 255);
      if (policy === 'none' || policy === 'quarantine' || policy === 'reject') auth.policy = policy;
      const dmarcFailed = auth.dmarc === 'fail';
      return {
        auth,
        header: headerFields(outcome.headers),
        reject: dmarcFailed && policy === 'reject',
        junk: (dmarcFailed && policy === 'quarantine') || auth.spf === 'fail',
      };
    },
  };
}

export type InboundAuthenticator = ReturnType<typeof createInboundAuthenticator>;

/** The stored record of a message row, read back (null and damaged records read as unchecked). */
export function parseMessageAuth(json: string | null): MessageAuth {
  if (!json) return UNCHECKED_AUTH;
  try {
    const value = JSON.parse(json) as Partial<MessageAuth>;
    return {
      spf: result(value.spf),
      dkim: result(value.dkim),
      dmarc: result(value.dmarc),
      ...(value.spfDomain ? { spfDomain: value.spfDomain } : {}),
      ...(value.dkimDomains ? { dkimDomains: value.dkimDomains } : {}),
      ...(value.fromDomain ? { fromDomain: value.fromDomain } : {}),
      ...(value.policy ? { policy: value.policy } : {}),
    };
  } catch {
    return UNCHECKED_AUTH;
  }
}
