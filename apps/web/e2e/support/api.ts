import type {
  AddDomainBody,
  CreatedAddress,
  CreateEmailBody,
  CreateSysAccountBody,
  Domain,
  Envelope,
  GetVarResponse,
  LoginData,
  SysAccount,
} from '@youju/contract';

/** Direct API calls for arranging and checking data around a browser test. */
export interface ApiCaller {
  /** GET under /api: the envelope, whatever its error code */
  get<T = unknown>(path: string): Promise<Envelope<T>>;
  /** POST a JSON body under /api: the envelope, whatever its error code */
  post<T = unknown>(path: string, body?: unknown): Promise<Envelope<T>>;
  /** the raw answer (files, statuses), with the same credentials */
  fetch(path: string, init?: { method?: 'GET' | 'POST'; body?: unknown }): Promise<Response>;
}

type Credentials = { token: string } | { apiKey: string } | undefined;

function caller(baseUrl: string, credentials: Credentials): ApiCaller {
  const send = (path: string, { method = 'GET', body }: { method?: 'GET' | 'POST'; body?: unknown } = {}) => {
    const headers: Record<string, string> = {};
    if (credentials && 'token' in credentials) headers.authorization = `Bearer ${credentials.token}`;
    if (credentials && 'apiKey' in credentials) headers['X-API-Key'] = credentials.apiKey;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${baseUrl}/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  };
  const envelope = async <T>(response: Response) => (await response.json()) as Envelope<T>;
  return {
    get: async <T>(path: string) => envelope<T>(await send(path)),
    post: async <T>(path: string, body?: unknown) => envelope<T>(await send(path, { method: 'POST', body })),
    fetch: send,
  };
}

/** Calls as the holder of `token` (a login), or anonymously without one. */
export function apiAs(baseUrl: string, token?: string): ApiCaller {
  return caller(baseUrl, token ? { token } : undefined);
}

/** Calls to the open API with an API key (X-API-Key). */
export function apiWithKey(baseUrl: string, apiKey: string): ApiCaller {
  return caller(baseUrl, { apiKey });
}

/** Unwraps an envelope that must have succeeded. */
export function ok<T>(envelope: Envelope<T>): T {
  if (envelope.error !== 0) throw new Error(`接口失败（${envelope.error}）：${envelope.msg}`);
  return envelope.data as T;
}

/** Logs a system account in through the API and returns its token. */
export async function apiLogin(baseUrl: string, username: string, password: string): Promise<string> {
  return ok(await apiAs(baseUrl).post<LoginData>('/login', { username, password })).token;
}

/** GET /api/getVar, whose payload stands at the top level of the envelope. */
export async function getVariables(baseUrl: string): Promise<GetVarResponse> {
  return (await apiAs(baseUrl).get('/getVar')) as unknown as GetVarResponse;
}

/** POST /api/user/addDomain as `api`'s caller. */
export async function addDomain(api: ApiCaller, body: AddDomainBody): Promise<Domain> {
  return ok(await api.post<Domain>('/user/addDomain', body));
}

/** POST /api/user/createEmail as `api`'s caller: a new address on one of its domains. */
export async function createAddress(api: ApiCaller, body: CreateEmailBody): Promise<string> {
  return ok(await api.post<CreatedAddress>('/user/createEmail', body)).address;
}

/** POST /api/admin/createSysAccount as `api`'s caller (an administrator). */
export async function createSysAccount(api: ApiCaller, body: CreateSysAccountBody): Promise<SysAccount> {
  return ok(await api.post<SysAccount>('/admin/createSysAccount', body));
}

/** A name no other test uses (letters and digits, as system user names allow). */
export function uniqueName(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}
