import { ErrorCode } from '@youju/contract';
import type { DnsApiConfig } from '../../config.js';
import { ApiError } from '../../lib/api-error.js';
import { createAlidnsClient } from './alidns-client.js';
import { createCloudflareClient } from './cloudflare-client.js';
import { API_TIMEOUT_MS, type DnsApiAccount, type DnsApiClient, DnsApiError } from './dns-api.js';
import { createDnspodClient } from './dnspod-client.js';

export type ApiProviderKind = 'alidns' | 'dnspod' | 'cloudflare';

export const API_PROVIDER_KINDS: readonly ApiProviderKind[] = ['alidns', 'dnspod', 'cloudflare'];

export const providerLabel: Record<ApiProviderKind, string> = {
  alidns: '阿里云 DNS',
  dnspod: 'DNSPod（腾讯云）',
  cloudflare: 'Cloudflare',
};

/** What each API calls its key pair, for messages. */
const keyWords: Record<ApiProviderKind, string> = {
  alidns: 'AccessKey ID 和 AccessKey Secret',
  dnspod: 'SecretId 和 SecretKey',
  cloudflare: 'API 令牌（API Token）',
};

const permissionWords: Record<ApiProviderKind, string> = {
  alidns: '该密钥（RAM 用户）是否有云解析 DNS 的管理权限（AliyunDNSFullAccess）',
  dnspod: '该密钥（子用户）是否有 DNSPod 的管理权限（QcloudDNSPodFullAccess）',
  cloudflare: '令牌是否有该区域的 Zone:Read 和 DNS:Edit 权限',
};

export function apiClient(
  kind: ApiProviderKind,
  config: DnsApiConfig,
  account: Omit<DnsApiAccount, 'baseUrl'>,
): DnsApiClient {
  switch (kind) {
    case 'alidns':
      return createAlidnsClient({ ...account, baseUrl: config.alidnsUrl });
    case 'dnspod':
      return createDnspodClient({ ...account, baseUrl: config.dnspodUrl });
    case 'cloudflare':
      return createCloudflareClient({ ...account, baseUrl: config.cloudflareUrl });
  }
}

/**
 * A failed API call in words the domain owner can act on. The provider's error code is named (it
 * helps with the provider's support); the secret never is — the error carries none.
 */
export function apiFailure(kind: ApiProviderKind, zone: string, error: DnsApiError): ApiError {
  const name = providerLabel[kind];
  const code = error.providerCode ? `（${error.providerCode}）` : '';
  switch (error.reason) {
    case 'auth':
      return ApiError.badRequest(
        `${name} 拒绝了访问密钥${code}：请检查 ${keyWords[kind]} 是否正确、是否已停用，以及${permissionWords[kind]}；本机时间也须准确`,
      );
    case 'zone':
      return ApiError.badRequest(
        `在 ${name} 账户中找不到域名（区域）${zone}${code}：请先在 ${name} 控制台添加该域名，或检查“区域”是否填写正确`,
      );
    case 'rateLimited':
      return ApiError.tooMany(`${name} 接口调用过于频繁，已被限流${code}，请稍后再试`, 60);
    case 'timeout':
      return new ApiError(
        ErrorCode.timeout,
        `${name} 接口在 ${API_TIMEOUT_MS / 1000} 秒内没有应答，请稍后再试`,
      );
    case 'unreachable':
      return new ApiError(
        ErrorCode.serviceUnavailable,
        `无法连接 ${name} 接口${code}，请检查服务器的网络和 DNS 设置后重试`,
      );
    case 'badResponse':
      return new ApiError(
        ErrorCode.serviceUnavailable,
        `${name} 接口返回了无法识别的应答${code}，请稍后再试`,
      );
    case 'rejected':
      return ApiError.badRequest(
        `${name} 拒绝了请求${code}${error.message ? `：${error.message}` : ''}，请在 ${name} 控制台检查该域名的解析设置`,
      );
  }
}

export { DnsApiError };
