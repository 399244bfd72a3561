import type { Envelope } from '@youju/contract';
import axios, { type AxiosError, type AxiosRequestConfig, type AxiosResponse } from 'axios';
import { unwrap } from './api-error';
import { apiBaseUrl, apiTimeoutMs, authorizationHeader, followLoginRedirect, isLoginExpired } from './rules';

/**
 * The JSON client. It resolves with the response envelope `{ error, msg, data }` whatever the HTTP
 * status, because the server sends 4xx statuses with a JSON body; only the login-expired rule and
 * transport failures reject here. Exported for the tests, which swap its adapter.
 */
export const apiClient = axios.create({
  baseURL: apiBaseUrl,
  timeout: apiTimeoutMs,
  validateStatus: () => true,
});

apiClient.interceptors.request.use((config) => {
  for (const [name, value] of Object.entries(authorizationHeader())) config.headers.set(name, value);
  return config;
});

apiClient.interceptors.response.use(
  (response) => handleEnvelope(response) as unknown as AxiosResponse,
  (error: AxiosError) => Promise.reject(new Error(transportMessage(error))),
);

function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && typeof (body as Envelope).error === 'number';
}

function handleEnvelope(response: AxiosResponse): Envelope | Promise<never> {
  const body: unknown = response.data;
  if (!isEnvelope(body)) {
    return Promise.reject(new Error(`服务器返回了无法识别的内容（HTTP ${response.status}），请稍后再试`));
  }
  if (isLoginExpired(body)) return Promise.reject(followLoginRedirect(body));
  return body;
}

function transportMessage(error: AxiosError): string {
  if (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT') return '请求超时，请检查网络后重试';
  if (axios.isCancel(error)) return '请求已取消';
  return '网络连接失败，请检查网络后重试';
}

/** What a JSON call needs: the method, the path under /api, query parameters or a body. */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  params?: object;
  data?: unknown;
  signal?: AbortSignal;
  onUploadProgress?: AxiosRequestConfig['onUploadProgress'];
}

/** Sends a request and resolves with the envelope, whatever its error code. */
export function requestEnvelope<T = unknown>(request: ApiRequest): Promise<Envelope<T>> {
  return apiClient.request(request) as unknown as Promise<Envelope<T>>;
}

/** GET under /api: the envelope's data, or an ApiError with the server's message. */
export async function apiGet<T = unknown>(url: string, params?: object): Promise<T> {
  return unwrap(await requestEnvelope<T>({ method: 'GET', url, params }));
}

/** POST a JSON body under /api: the envelope's data, or an ApiError with the server's message. */
export async function apiPost<T = unknown>(url: string, data?: unknown): Promise<T> {
  return unwrap(await requestEnvelope<T>({ method: 'POST', url, data }));
}

/** DELETE under /api: the envelope's data, or an ApiError with the server's message. */
export async function apiDelete<T = unknown>(url: string): Promise<T> {
  return unwrap(await requestEnvelope<T>({ method: 'DELETE', url }));
}
