import { DefaultMessage, ErrorCode, type ErrorCodeValue, httpStatusFor, LOGIN_URL } from '@youju/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, isDatabaseUnavailable, isStorageFull } from '../lib/api-error.js';
import { localize, requestLanguage } from '../lib/i18n/index.js';
import { validationMessage } from './validation.js';

function send(code: ErrorCodeValue, msg: string, extra: Record<string, unknown> = {}) {
  const body: Record<string, unknown> = { error: code, msg, ...extra };
  if (code === ErrorCode.notLoggedIn) body.url = LOGIN_URL;
  return { status: httpStatusFor(code), body };
}

/** Maps what Fastify itself rejects (before a handler runs) to the envelope. */
function fromFastify(error: FastifyError): { code: ErrorCodeValue; msg: string } | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { code: ErrorCode.badRequest, msg: '请求体不是有效的 JSON，请检查格式' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { code: ErrorCode.badRequest, msg: '请求体为空，请提交 JSON 数据' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: ErrorCode.tooLarge, msg: '请求体过大，请减小提交的内容' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { code: ErrorCode.badRequest, msg: '不支持的内容类型，请以 JSON（application/json）提交' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { code: ErrorCode.badRequest, msg: '请求长度与内容不符' };
  }
  if (error instanceof SyntaxError)
    return { code: ErrorCode.badRequest, msg: '请求体不是有效的 JSON，请检查格式' };
  const status = error.statusCode ?? 500;
  if (status === 413) return { code: ErrorCode.tooLarge, msg: DefaultMessage[ErrorCode.tooLarge] };
  if (status === 429)
    return { code: ErrorCode.tooManyRequests, msg: DefaultMessage[ErrorCode.tooManyRequests] };
  if (status === 404) return { code: ErrorCode.notFound, msg: DefaultMessage[ErrorCode.notFound] };
  if (status >= 400 && status < 500)
    return { code: ErrorCode.badRequest, msg: DefaultMessage[ErrorCode.badRequest] };
  return null;
}

const DATABASE_UNAVAILABLE_MESSAGE =
  '数据库暂时无法连接，操作没有完成；服务会自动重连，请稍后重试，问题持续时请联系站点管理员';
/** When a client should try again while the database is away (the pool reconnects on demand). */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Every failure leaves as the envelope `{ error, msg }` with the matching HTTP status. 5xx errors
 * are logged with context and answered without detail.
 */
export function installErrorHandling(app: FastifyInstance): void {
  // A failure's `msg` in the caller's language (Accept-Language; Chinese by default): every one,
  // whether from here or sent directly by a route or plugin, passes this hook as an object.
  app.addHook('preSerialization', async (request, reply, payload: unknown) => {
    if (reply.statusCode < 400 || typeof payload !== 'object' || payload === null) return payload;
    const { msg } = payload as { msg?: unknown };
    if (typeof msg !== 'string') return payload;
    const language = requestLanguage(request.headers['accept-language']);
    return language === 'zh-CN' ? payload : { ...payload, msg: localize(msg, language) };
  });
  app.setErrorHandler((thrown: unknown, request, reply) => {
    const error = thrown as FastifyError;
    let result: { status: number; body: Record<string, unknown> };
    if (thrown instanceof ApiError) {
      result = send(thrown.code, thrown.message, thrown.extra);
      const retry = thrown.extra.retryAfterSeconds;
      if (typeof retry === 'number') reply.header('retry-after', String(retry));
    } else if (error.validation) {
      result = send(
        ErrorCode.badRequest,
        validationMessage(error.validation as never, error.validationContext),
      );
    } else {
      const mapped = fromFastify(error);
      if (mapped) {
        result = send(mapped.code, mapped.msg);
      } else if (isStorageFull(error)) {
        // Every change runs in a transaction, so a full disk rolls it back whole: say so, with the
        // status that names the cause (507), rather than an unexplained 500.
        request.log.error({ err: error, url: request.url, method: request.method }, 'storage full');
        result = send(ErrorCode.storageFull, DefaultMessage[ErrorCode.storageFull]);
      } else if (isDatabaseUnavailable(error)) {
        // The database restarts, fails over or refuses connections for a while; the pool opens new
        // connections by itself. The transaction did not commit (unless the connection broke during
        // the commit itself, which a retry of the request reveals), so "try again" is the answer.
        request.log.warn({ err: error, url: request.url, method: request.method }, 'database unavailable');
        reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
        result = send(ErrorCode.serviceUnavailable, DATABASE_UNAVAILABLE_MESSAGE);
      } else {
        request.log.error({ err: error, url: request.url, method: request.method }, 'request failed');
        result = send(ErrorCode.internal, DefaultMessage[ErrorCode.internal]);
      }
    }
    return reply.status(result.status).type('application/json; charset=utf-8').send(result.body);
  });
}
