import type { DkimKey, DnsCheckRecord, DnsCheckStatus } from '@youju/contract';
import { parseTagList } from '../dkim/index.js';
import type { LookupResult, MxValue } from './dns-lookup.js';

/** What a domain should publish for this server to receive, send and be trusted for its mail. */
export interface ExpectedRecord {
  kind: 'MX' | 'SPF' | 'DKIM' | 'DMARC';
  type: 'MX' | 'TXT';
  name: string;
  /** the value as shown to people (MX: `10 mx.example.com`) */
  value: string;
  /** MX only */
  preference?: number;
  exchange?: string;
  selector?: string;
}

export const MX_PREFERENCE = 10;

function bare(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

export function expectedRecords(domain: string, mailHostname: string, dkimKeys: DkimKey[]): ExpectedRecord[] {
  const host = bare(mailHostname);
  return [
    {
      kind: 'MX',
      type: 'MX',
      name: domain,
      value: `${MX_PREFERENCE} ${host}`,
      preference: MX_PREFERENCE,
      exchange: host,
    },
    // RFC 7208 section 5.4 (mx) and 5.3 (a:<host>): either authorises this server to send.
    { kind: 'SPF', type: 'TXT', name: domain, value: `v=spf1 mx a:${host} ~all` },
    ...dkimKeys.map(
      (key): ExpectedRecord => ({
        kind: 'DKIM',
        type: 'TXT',
        name: key.record.name,
        value: key.record.value,
        selector: key.selector,
      }),
    ),
    // RFC 7489 section 6.3; quarantine asks receivers to treat unauthenticated mail as suspect.
    {
      kind: 'DMARC',
      type: 'TXT',
      name: `_dmarc.${domain}`,
      value: 'v=DMARC1; p=quarantine; adkim=r; aspf=r',
    },
  ];
}

/** The host field people type at their DNS provider: `@` for the domain itself, else the prefix. */
export function hostLabel(name: string, domain: string): string {
  if (name === domain) return '@';
  return name.endsWith(`.${domain}`) ? name.slice(0, -(domain.length + 1)) : name;
}

function where(record: ExpectedRecord, domain: string): string {
  return `在域名 ${domain} 的 DNS 解析中添加一条 ${record.type} 记录：主机记录 ${hostLabel(record.name, domain)}（即 ${record.name}）`;
}

function report(
  record: ExpectedRecord,
  found: string[],
  status: DnsCheckStatus,
  detail: string,
): DnsCheckRecord & { kind: ExpectedRecord['kind'] } {
  return {
    kind: record.kind,
    type: record.type,
    name: record.name,
    expected: record.value,
    found,
    status,
    detail,
  };
}

function unanswered<T>(
  record: ExpectedRecord,
  result: LookupResult<T>,
): (DnsCheckRecord & { kind: ExpectedRecord['kind'] }) | null {
  if (result.kind === 'timeout') {
    return report(
      record,
      [],
      'timeout',
      `${result.message}，无法确认 ${record.kind} 记录；请稍后重试或检查 DNS 服务器设置`,
    );
  }
  if (result.kind === 'error') {
    return report(record, [], 'missing', `${result.message}，无法读取 ${record.kind} 记录；请稍后重试`);
  }
  return null;
}

export type CheckedRecord = DnsCheckRecord & { kind: ExpectedRecord['kind'] };

/** MX: mail for the domain must reach this server first (RFC 5321 section 5.1, lowest preference). */
export function checkMx(
  record: ExpectedRecord,
  domain: string,
  result: LookupResult<MxValue>,
): CheckedRecord {
  const failed = unanswered(record, result);
  if (failed) return failed;
  const ask = `${where(record, domain)}，记录值 ${record.exchange}，优先级 ${record.preference}`;
  if (result.kind !== 'found') return report(record, [], 'missing', `没有找到 MX 记录。请${ask}`);
  const values = [...result.values].sort((a, b) => a.priority - b.priority);
  const found = values.map((mx) => `${mx.priority} ${bare(mx.exchange)}`);
  const ours = values.filter((mx) => bare(mx.exchange) === record.exchange);
  if (ours.length === 0) {
    return report(
      record,
      found,
      'wrong',
      `MX 记录没有指向本服务器 ${record.exchange}。请把 MX 记录改为：${ask}，并删除其他 MX 记录`,
    );
  }
  const best = values[0]?.priority ?? 0;
  if ((ours[0]?.priority ?? 0) > best) {
    return report(
      record,
      found,
      'wrong',
      `有优先级更高（数值更小）的 MX 记录指向其他服务器，邮件会先投递到那里。请删除它们，或把 ${record.exchange} 的优先级设为最小`,
    );
  }
  return report(record, found, 'ok', `MX 记录已指向 ${record.exchange}`);
}

/**
 * SPF (RFC 7208): exactly one `v=spf1` TXT record (section 4.5, more than one is a permerror) that
 * authorises this server through `mx` (when MX points here), `a:<host>` or `include:<host>`.
 */
export function checkSpf(
  record: ExpectedRecord,
  domain: string,
  mailHostname: string,
  mxPointsHere: boolean,
  result: LookupResult<string>,
): CheckedRecord {
  const failed = unanswered(record, result);
  if (failed) return failed;
  const ask = `${where(record, domain)}，记录值 ${record.value}`;
  const spf =
    result.kind === 'found' ? result.values.filter((text) => /^v=spf1(\s|$)/i.test(text.trim())) : [];
  if (spf.length === 0) return report(record, [], 'missing', `没有找到 SPF 记录。请${ask}`);
  if (spf.length > 1) {
    return report(
      record,
      spf,
      'wrong',
      `有 ${spf.length} 条 SPF 记录，收件方会判定为错误（RFC 7208 第 4.5 节）。请合并为一条：${record.value}`,
    );
  }
  const host = bare(mailHostname);
  const terms = (spf[0] ?? '').trim().toLowerCase().split(/\s+/).slice(1);
  const mechanism = (term: string) => term.replace(/^[+]/, '');
  const authorises = terms.some((term) => {
    const bareTerm = mechanism(term);
    if (bareTerm === 'mx' || bareTerm === `mx:${domain}`) return mxPointsHere;
    if (bareTerm === `a:${host}` || bareTerm === `include:${host}`) return true;
    return bareTerm === 'a' && domain === host;
  });
  if (!authorises) {
    return report(
      record,
      spf,
      'wrong',
      `SPF 记录没有包含本服务器 ${host}，从本服务器发出的邮件会被判为伪造。请在 SPF 记录中加入 a:${host}${mxPointsHere ? ' 或 mx' : ''}，例如：${record.value}`,
    );
  }
  return report(record, spf, 'ok', 'SPF 记录已包含本服务器');
}

/** DKIM (RFC 6376 section 3.6.1): the key record at `<selector>._domainkey` carries our public key. */
export function checkDkim(
  record: ExpectedRecord,
  domain: string,
  result: LookupResult<string>,
): CheckedRecord {
  const failed = unanswered(record, result);
  if (failed) return failed;
  const ask = `${where(record, domain)}，记录值 ${record.value}`;
  const found = result.kind === 'found' ? result.values : [];
  if (found.length === 0)
    return report(record, [], 'missing', `没有找到选择器 ${record.selector} 的 DKIM 记录。请${ask}`);
  const expectedKey = parseTagList(record.value).get('p');
  const matches = found.some((text) => {
    const tags = parseTagList(text);
    const version = tags.get('v');
    return (version === undefined || version === 'DKIM1') && tags.get('p') === expectedKey;
  });
  if (!matches) {
    return report(
      record,
      found,
      'wrong',
      `DKIM 记录的公钥与本服务器的密钥不一致，签名将无法通过验证。请把记录值改为：${record.value}`,
    );
  }
  return report(record, found, 'ok', `选择器 ${record.selector} 的 DKIM 公钥正确`);
}

/** DMARC (RFC 7489 section 6.3/6.4): one record, starting with v=DMARC1, with a valid p= policy. */
export function checkDmarc(
  record: ExpectedRecord,
  domain: string,
  result: LookupResult<string>,
): CheckedRecord {
  const failed = unanswered(record, result);
  if (failed) return failed;
  const ask = `${where(record, domain)}，记录值 ${record.value}`;
  const found =
    result.kind === 'found' ? result.values.filter((text) => /^v\s*=\s*DMARC1/i.test(text.trim())) : [];
  if (found.length === 0) return report(record, [], 'missing', `没有找到 DMARC 记录。请${ask}`);
  if (found.length > 1) {
    return report(
      record,
      found,
      'wrong',
      `有 ${found.length} 条 DMARC 记录，收件方会忽略全部（RFC 7489 第 6.6.3 节）。请只保留一条：${record.value}`,
    );
  }
  const tags = parseTagList(found[0] ?? '');
  const policy = tags.get('p')?.toLowerCase();
  if (tags.get('v') !== 'DMARC1' || !policy || !['none', 'quarantine', 'reject'].includes(policy)) {
    return report(
      record,
      found,
      'wrong',
      `DMARC 记录无法解析：必须以 v=DMARC1 开头，且 p= 为 none、quarantine 或 reject。请改为：${record.value}`,
    );
  }
  return report(record, found, 'ok', `DMARC 记录有效（策略 p=${policy}）`);
}

/** The domain's overall status: every record ok, some, or none. */
export function overallStatus(records: readonly DnsCheckRecord[]): 'ok' | 'partial' | 'failed' {
  const ok = records.filter((record) => record.status === 'ok').length;
  if (ok === records.length) return 'ok';
  return ok > 0 ? 'partial' : 'failed';
}
