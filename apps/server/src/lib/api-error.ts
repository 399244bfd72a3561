import { DefaultMessage, ErrorCode, type ErrorCodeValue } from '@youju/contract';

/**
 * A failure the caller can act on: a stable `ErrorCode` (from @youju/contract) and a Chinese
 * message that says what to fix. Services throw it; the envelope plugin turns it into the response.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCodeValue,
    message: string = DefaultMessage[code],
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  static badRequest(message: string) {
    return new ApiError(ErrorCode.badRequest, message);
  }
  static forbidden(message: string = DefaultMessage[ErrorCode.forbidden]) {
    return new ApiError(ErrorCode.forbidden, message);
  }
  static notFound(message: string = DefaultMessage[ErrorCode.notFound]) {
    return new ApiError(ErrorCode.notFound, message);
  }
  static conflict(message: string) {
    return new ApiError(ErrorCode.conflict, message);
  }
  static tooMany(message: string = DefaultMessage[ErrorCode.tooManyRequests], retryAfterSeconds?: number) {
    return new ApiError(ErrorCode.tooManyRequests, message, retryAfterSeconds ? { retryAfterSeconds } : {});
  }
  static notLoggedIn() {
    return new ApiError(ErrorCode.notLoggedIn);
  }
}

/** Did the failure come from a full disk (ENOSPC), SQLite (SQLITE_FULL) or PostgreSQL (53100)? */
export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || code === '53100';
}

/**
 * Did the failure come from the database being away rather than from the statement: the
 * connection ended by the server (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03
 * cannot_connect_now), a connection exception (class 08, which db/database.ts also gives every
 * failure to connect), or the socket itself closed, refused or reset. Retrying later may succeed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code === '57P01' || code === '57P02' || code === '57P03' || code.startsWith('08')) return true;
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE') return true;
  }
  // node-postgres's own words (not the server's, which may be translated) for a closed socket.
  return typeof message === 'string' && message.startsWith('Connection terminated');
}
