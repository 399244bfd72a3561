import { DefaultMessage, type Envelope, ErrorCode, LOGIN_URL } from '@youju/contract';
import { clearToken, readToken } from '../../state/session';
import { acceptLanguage, t } from '../i18n';
import { navigateTo } from '../navigation';

// The rules every kind of call follows (JSON, upload, download, event stream): the base URL, the
// timeout, the login token and what an expired login does.

/** Every call goes to a path beginning /api. */
export const apiBaseUrl = '/api';
/** A call not answered within 60 seconds fails. */
export const apiTimeoutMs = 60_000;

/** Why a call got no answer, in the words shown to the person (getters: in the current language). */
export const transportFailure = {
  get timeout() {
    return t('请求超时，请检查网络后重试');
  },
  get cancelled() {
    return t('请求已取消');
  },
  get network() {
    return t('网络连接失败，请检查网络后重试');
  },
};

/** The stored login token as a bearer Authorization header; none without a token. */
export function authorizationHeader(): Record<string, string> {
  const token = readToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/**
 * The headers of every API request: the token, and the interface's language, so that the server's
 * `msg` comes in it (said always: the browser's own Accept-Language may differ from the choice).
 */
export function apiHeaders(): Record<string, string> {
  return { ...authorizationHeader(), 'Accept-Language': acceptLanguage() };
}

/** `{ error: 302, url }`: the login has expired or was never there. */
export function isLoginExpired(envelope: Envelope): boolean {
  return envelope.error === ErrorCode.notLoggedIn;
}

/**
 * The login-expired rule, for every kind of call: the stored token is forgotten, the visitor goes to
 * the url the answer names (the login screen when it names none), and the call fails with the
 * answer's msg or the default "登录状态已过期，请先登录". Returns that error for the caller to throw.
 */
export function followLoginRedirect(envelope: Envelope): Error {
  clearToken();
  navigateTo(envelope.url || LOGIN_URL);
  return new Error(envelope.msg || DefaultMessage[ErrorCode.notLoggedIn]);
}

/** A URL under /api with the query parameters that are set (undefined and null ones are left out). */
export function apiUrl(path: string, params: object = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) query.set(name, String(value));
  }
  const search = query.toString();
  return `${apiBaseUrl}${path}${search ? `?${search}` : ''}`;
}

export type QueryParams = Record<string, string | number | boolean | undefined>;
