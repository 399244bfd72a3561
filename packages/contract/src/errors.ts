/**
 * Error codes of the API envelope `{ error, msg, data }` (docs/api.md). The HTTP status carries the
 * same class, except 302 (not logged in), which travels as HTTP 401 so that browsers do not follow
 * it, with `url: "/auth"` beside it in the body.
 */
export const ErrorCode = {
  ok: 0,
  notLoggedIn: 302,
  badRequest: 400,
  forbidden: 403,
  notFound: 404,
  timeout: 408,
  conflict: 409,
  tooLarge: 413,
  tooManyRequests: 429,
  internal: 500,
  /** a part the server depends on (its database) is away for a while: retry later */
  serviceUnavailable: 503,
  /** the server's disk or database is full: nothing was changed (RFC 4918 section 11.5) */
  storageFull: 507,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export function httpStatusFor(code: ErrorCodeValue): number {
  if (code === ErrorCode.ok) return 200;
  if (code === ErrorCode.notLoggedIn) return 401;
  return code;
}

/** Where the client goes when the body says error 302. */
export const LOGIN_URL = '/auth';

export const DefaultMessage: Record<ErrorCodeValue, string> = {
  0: 'ok',
  302: '登录状态已过期，请先登录',
  400: '请求参数有误，请检查后重试',
  403: '没有权限执行此操作',
  404: '请求的内容不存在',
  408: '等待超时，请稍后重试',
  409: '内容已存在或已被使用',
  413: '内容过大，请减小后重试',
  429: '操作过于频繁，请稍后再试',
  500: '服务器内部错误，请稍后再试',
  503: '服务暂时不可用，请稍后再试',
  507: '服务器存储空间已满，操作没有完成，数据未改动；请稍后再试，或联系站点管理员清理空间',
};

/** Every response body of the API. */
export interface Envelope<T = unknown> {
  error: number;
  msg: string;
  data?: T;
  url?: string;
}
