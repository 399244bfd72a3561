import { DefaultMessage, type Envelope, ErrorCode, LOGIN_URL } from '@youju/contract';
import axios, { type AxiosError, type AxiosRequestConfig, type AxiosResponse } from 'axios';
import { env } from '../config/env';
import { clearToken, readToken } from '../stores/session-store';
import { navigateTo } from './navigation';

/**
 * The one HTTP client of the web app (seed sections 7 and 8). It resolves with the response envelope
 * `{ error, msg, data }` whatever the HTTP status, because the server sends 4xx statuses with a JSON
 * body; only the login-expired rule and transport failures reject here.
 */
export const apiClient = axios.create({
  baseURL: env.apiBaseUrl,
  timeout: env.apiTimeoutMs,
  validateStatus: () => true,
});

apiClient.interceptors.request.use((config) => {
  const token = readToken();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
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
  if (body.error === ErrorCode.notLoggedIn) {
    // Seed section 8: go where the body says, then reject with its message or the default one.
    clearToken();
    navigateTo(body.url || LOGIN_URL);
    return Promise.reject(new Error(body.msg || DefaultMessage[ErrorCode.notLoggedIn]));
  }
  return body;
}

function transportMessage(error: AxiosError): string {
  if (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT') return '请求超时，请检查网络后重试';
  if (axios.isCancel(error)) return '请求已取消';
  return '网络连接失败，请检查网络后重试';
}

/** Sends a request and resolves with the envelope, whatever its error code. */
export function request<T = unknown>(config: AxiosRequestConfig): Promise<Envelope<T>> {
  return apiClient.request(config) as unknown as Promise<Envelope<T>>;
}
