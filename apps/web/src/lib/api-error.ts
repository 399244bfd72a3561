import { DefaultMessage, type Envelope, type ErrorCodeValue } from '@youju/contract';
import type { AxiosRequestConfig } from 'axios';
import { request } from './api-client';

/** A failed envelope (error ≠ 0). Its message is the server's Chinese `msg`, ready to show. */
export class ApiError extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
  }
}

function defaultMessageFor(code: number): string {
  return DefaultMessage[code as ErrorCodeValue] ?? `请求失败（错误码 ${code}），请稍后再试`;
}

/** Turns an envelope into its data, throwing an ApiError for error ≠ 0. */
export function unwrap<T>(envelope: Envelope<T>): T {
  if (envelope.error !== 0)
    throw new ApiError(envelope.error, envelope.msg || defaultMessageFor(envelope.error));
  return envelope.data as T;
}

/** Request + unwrap: what the feature fetchers use. Failures reach the query cache, which shows them. */
export async function callApi<T>(config: AxiosRequestConfig): Promise<T> {
  return unwrap(await request<T>(config));
}
