import { DefaultMessage, type Envelope, type ErrorCodeValue } from '@youju/contract';
import { t } from '../i18n';

/**
 * A failed envelope (error ≠ 0). Its message is the server's `msg`, ready to show, in the interface's
 * language (the API is told it: lib/i18n's acceptLanguage).
 */
export class ApiError extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
  }
}

function defaultMessageFor(code: number): string {
  return DefaultMessage[code as ErrorCodeValue] ?? t('请求失败（错误码 {code}），请稍后再试', { code });
}

/**
 * The message to show for a failure: the server's own words, and for 429 always when to come back
 * (the person must know that waiting, not retrying, is the fix).
 */
export function messageFor(code: number, msg: string | undefined): string {
  const text = msg || defaultMessageFor(code);
  if (code === 429 && !/稍后|后再试|分钟|小时|明天|later|minute|hour|tomorrow/i.test(text))
    // The message's own full stop gives way to the sentence added after it.
    return t('{message}，请稍后再试', { message: text.replace(/[。.!！]$/, '') });
  return text;
}

/** Turns an envelope into its data, throwing an ApiError for error ≠ 0. */
export function unwrap<T>(envelope: Envelope<T>): T {
  if (envelope.error !== 0) throw new ApiError(envelope.error, messageFor(envelope.error, envelope.msg));
  return envelope.data as T;
}
