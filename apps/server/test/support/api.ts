import { request } from 'node:http';
import type { Static } from '@sinclair/typebox';
import type {
  AddressList,
  ApiKeyView,
  BlacklistList,
  BuyEmailData,
  Card,
  CardBatch,
  CertificatesData,
  CheckAddressData,
  ClientSettingsData,
  CreateCardData,
  CreatedAddress,
  CreatedWebhook,
  DashboardView,
  DeletedCount,
  DkimData,
  DnsProviderData,
  DnsRecordsData,
  Domain,
  DomainList,
  DraftDetail,
  DraftItem,
  EmailAccount,
  ErrorCodeValue,
  Filter,
  FilterList,
  ForwardSetting,
  GetVarResponse,
  GuideState,
  ImportEmailAccountData,
  LoginData,
  LoginEmailData,
  LoginHistoryItem,
  MailDetail,
  MailItem,
  OpenDomainList,
  Order,
  PageOf,
  PayMethodList,
  PaySettings,
  PublicOrderList,
  RegEmailData,
  RevokedCount,
  SaleDomainList,
  SaveDraftData,
  SendEmailData,
  SentDetail,
  SentItem,
  SessionList,
  SettingData,
  StartAuthData,
  SysAccount,
  TelegramSettings,
  UnreadData,
  UpdatedCount,
  UploadedFile,
  VerCardData,
  VersionInfo,
  Webhook,
  WebhookDelivery,
  WebhookTestResult,
} from '@youju/contract';
import { expect } from 'vitest';

/** A call that worked: error 0 and the call's data (none for calls that only say "done"). */
export interface ApiSuccess<T> {
  error: 0;
  msg: string;
  data: T;
}

/** A refused call: one of the contract's error codes and a Chinese message; never data. */
export interface ApiFailure {
  error: Exclude<ErrorCodeValue, 0>;
  msg: string;
  data?: undefined;
  /** where the client goes next (302: the login page) */
  url?: string;
  /** details some refusals add, such as `retryAfterSeconds` */
  [detail: string]: unknown;
}

/**
 * The contract's envelope (`{ error, msg, data? }`), split on `error` so that a test that checks
 * `body.error !== 0` (or calls {@link expectOk}) reads `data` with the call's type.
 */
export type ApiEnvelope<T> = ApiSuccess<T> | ApiFailure;

/** An envelope with nothing in `data`. */
type Done = ApiEnvelope<undefined>;

/**
 * What each call under /api answers, by path (without the query), in the contract's types: the
 * route's declared response schema in apps/server/src/modules/<feature>/*-routes.ts.
 */
export interface ApiBodies {
  // public and sign-in
  getVar: GetVarResponse;
  startAuth: ApiEnvelope<StartAuthData>;
  login: ApiEnvelope<LoginData>;
  loginEmail: ApiEnvelope<LoginEmailData>;
  regEmail: ApiEnvelope<RegEmailData>;
  getArrDomains: ApiEnvelope<Static<typeof OpenDomainList>>;
  getAdminDomains: ApiEnvelope<Static<typeof SaleDomainList>>;
  checkAddress: ApiEnvelope<CheckAddressData>;
  getPayMethods: ApiEnvelope<Static<typeof PayMethodList>>;
  buyEmail: ApiEnvelope<BuyEmailData>;
  queryOrder: ApiEnvelope<Static<typeof PublicOrderList>>;
  verCard: ApiEnvelope<VerCardData>;
  /** what a payment gateway's notice is answered with: `success` or `fail` (text, not JSON) */
  'pay/notify/epay': string;
  // session
  'user/logout': Done;
  'user/changePassword': ApiEnvelope<{ token: string }>;
  'user/getSessions': ApiEnvelope<Static<typeof SessionList>>;
  'user/revokeSession': Done;
  'user/revokeOtherSessions': ApiEnvelope<Static<typeof RevokedCount>>;
  'user/getLoginHistory': ApiEnvelope<PageOf<LoginHistoryItem>>;
  // domains, DKIM, DNS, certificates
  'user/getDomains': ApiEnvelope<Static<typeof DomainList>>;
  'user/addDomain': ApiEnvelope<Domain>;
  'user/editDomain': ApiEnvelope<Domain>;
  'user/verifyDomain': ApiEnvelope<Domain>;
  'user/delDomain': Done;
  'user/getDkim': ApiEnvelope<DkimData>;
  'user/rotateDkim': ApiEnvelope<DkimData>;
  'user/removeDkimKey': ApiEnvelope<DkimData>;
  'user/checkDNS': ApiEnvelope<DnsRecordsData>;
  'user/setDNS': ApiEnvelope<DnsRecordsData>;
  'user/getDnsProvider': ApiEnvelope<DnsProviderData>;
  'user/setDnsProvider': ApiEnvelope<DnsProviderData>;
  'user/getCertificates': ApiEnvelope<CertificatesData>;
  'user/reloadCertificates': ApiEnvelope<CertificatesData>;
  'user/renewCertificates': ApiEnvelope<CertificatesData>;
  // mail
  'user/createEmail': ApiEnvelope<CreatedAddress>;
  'user/emailList': ApiEnvelope<Static<typeof AddressList>>;
  'user/getInbox': ApiEnvelope<PageOf<MailItem>>;
  'user/getEmail': ApiEnvelope<MailDetail>;
  'user/getUnreadEmail': ApiEnvelope<UnreadData>;
  'user/setReadEmail': Done;
  'user/updateEmail': ApiEnvelope<MailItem>;
  'user/starEmail': ApiEnvelope<Static<typeof UpdatedCount>>;
  'user/markAllRead': ApiEnvelope<Static<typeof UpdatedCount>>;
  'user/delEmail': ApiEnvelope<Static<typeof DeletedCount>>;
  'user/deleteEmailsInTimeRange': ApiEnvelope<Static<typeof DeletedCount>>;
  'user/getFilters': ApiEnvelope<Static<typeof FilterList>>;
  'user/addFilter': ApiEnvelope<Filter>;
  'user/delFilter': Done;
  // sending
  'user/uploadFile': ApiEnvelope<UploadedFile>;
  'user/sendEmail': ApiEnvelope<SendEmailData>;
  'user/getSentEmail': ApiEnvelope<PageOf<SentItem>>;
  'user/getSentDetail': ApiEnvelope<SentDetail>;
  'user/saveDraft': ApiEnvelope<SaveDraftData>;
  'user/draftList': ApiEnvelope<PageOf<DraftItem>>;
  'user/getDraft': ApiEnvelope<DraftDetail>;
  'user/deleteDraft': Done;
  'user/delSentEmail': ApiEnvelope<Static<typeof DeletedCount>>;
  'user/getClientSettings': ApiEnvelope<ClientSettingsData>;
  // business
  'user/getEmailAccount': ApiEnvelope<PageOf<EmailAccount>>;
  'user/searchEmailAccount': ApiEnvelope<PageOf<EmailAccount>>;
  'user/getEmailAccountById': ApiEnvelope<EmailAccount>;
  'user/createEmailAccount': ApiEnvelope<EmailAccount>;
  'user/editEmailAccount': ApiEnvelope<EmailAccount>;
  'user/batchEditEmailAccount': ApiEnvelope<Static<typeof UpdatedCount>>;
  'user/delEmailAccount': ApiEnvelope<Static<typeof DeletedCount>>;
  'user/importEmailAccount': ApiEnvelope<ImportEmailAccountData>;
  'user/getCard': ApiEnvelope<PageOf<Card>>;
  'user/getCardBatches': ApiEnvelope<CardBatch[]>;
  'user/createCard': ApiEnvelope<CreateCardData>;
  'user/editCard': ApiEnvelope<Card>;
  'user/delCard': ApiEnvelope<Static<typeof DeletedCount>>;
  'user/getOrders': ApiEnvelope<PageOf<Order>>;
  'user/confirmOrder': ApiEnvelope<Order>;
  'user/cancelOrder': ApiEnvelope<Order>;
  'user/getPaySettings': ApiEnvelope<PaySettings>;
  'user/updatePaySettings': ApiEnvelope<PaySettings>;
  // operations
  'user/getSetting': ApiEnvelope<SettingData>;
  'user/updateSetting': ApiEnvelope<SettingData>;
  'user/getKey': ApiEnvelope<ApiKeyView>;
  'user/refreshKey': ApiEnvelope<ApiKeyView>;
  'user/getVersion': ApiEnvelope<VersionInfo>;
  'user/getDashboard': ApiEnvelope<DashboardView>;
  'user/getGuide': ApiEnvelope<GuideState>;
  // webhooks and Telegram
  'user/getWebhooks': ApiEnvelope<Webhook[]>;
  'user/addWebhook': ApiEnvelope<CreatedWebhook>;
  'user/editWebhook': ApiEnvelope<Webhook>;
  'user/delWebhook': Done;
  'user/testWebhook': ApiEnvelope<WebhookTestResult>;
  'user/getWebhookDeliveries': ApiEnvelope<PageOf<WebhookDelivery>>;
  'user/getTelegram': ApiEnvelope<TelegramSettings>;
  'user/setTelegram': Done;
  // mail forwarding
  'user/getForward': ApiEnvelope<ForwardSetting>;
  'user/setForward': ApiEnvelope<ForwardSetting>;
  'admin/getSysAccount': ApiEnvelope<PageOf<SysAccount>>;
  'admin/createSysAccount': ApiEnvelope<SysAccount>;
  'admin/editSysAccount': ApiEnvelope<SysAccount>;
  'admin/delSysAccount': Done;
  'waf/getBlacklist': ApiEnvelope<Static<typeof BlacklistList>>;
  'waf/addBlacklistIP': ApiEnvelope<{ ip: string }>;
  'waf/removeBlacklistIP': Done;
  // the open API (X-API-Key)
  'open/createEmail': ApiEnvelope<CreatedAddress>;
  'open/getInbox': ApiEnvelope<PageOf<MailItem>>;
  'open/getEmail': ApiEnvelope<MailDetail>;
  'open/waitEmail': ApiEnvelope<MailDetail>;
  'open/delEmail': ApiEnvelope<Static<typeof DeletedCount>>;
}

export type ApiPath = keyof ApiBodies;

/** The body a path answers with; a path the table does not name answers an envelope of unknown data. */
export type BodyOf<P extends string> =
  PathOf<P> extends ApiPath ? ApiBodies[PathOf<P>] : ApiEnvelope<unknown>;

/** A path without its query. */
type PathOf<P extends string> = P extends `${infer Path}?${string}` ? Path : P;

/** A function that calls the API of one server (a test server, a server process). */
export type ApiCaller = <P extends string>(
  method: HttpMethod,
  path: P,
  options?: ApiCallOptions,
) => Promise<ApiResponse<BodyOf<P>>>;

/** Calls the API at `baseUrl`. */
export function apiAt(baseUrl: string): ApiCaller {
  return (method, path, options) => callApi(baseUrl, method, path, options);
}

/** The data of a successful call to `P`. */
export type DataOf<P extends ApiPath> = ApiBodies[P] extends ApiEnvelope<infer T> ? T : never;

export interface ApiResponse<B> {
  status: number;
  body: B;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiCallOptions {
  /** a session token, sent as `Authorization: Bearer …` */
  token?: string;
  /** sent as JSON; a string as it is; FormData as multipart/form-data */
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * the loopback address to call from (127.0.0.2 …): the server listens on 127.0.0.1 and Linux
   * routes all of 127.0.0.0/8 to loopback, so the server sees this address as the client's
   */
  localAddress?: string;
}

/**
 * Calls `<baseUrl>/api/<path>` over real HTTP and returns the status and the parsed body (the text
 * itself when it is not JSON). The body's type follows the path, from {@link ApiBodies}.
 */
export async function callApi<P extends string>(
  baseUrl: string,
  method: HttpMethod,
  path: P,
  options: ApiCallOptions = {},
): Promise<ApiResponse<BodyOf<P>>> {
  const url = `${baseUrl}/api/${path.replace(/^\//, '')}`;
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body instanceof FormData) {
    // multipart, as a browser uploads a file: fetch writes the content type with its boundary
    const response = await fetch(url, { method, headers, body: options.body });
    return { status: response.status, body: parseBody(await response.text()) as BodyOf<P> };
  }
  let payload: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const { status, text } = options.localAddress
    ? await requestFrom(options.localAddress, url, method, headers, payload)
    : await fetch(url, { method, headers, body: payload }).then(async (response) => ({
        status: response.status,
        text: await response.text(),
      }));
  return { status, body: parseBody(text) as BodyOf<P> };
}

/** The body of an answer: parsed JSON, or the text itself when it is not JSON. */
export function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** fetch cannot choose the local address, so a call from another loopback address uses node:http. */
function requestFrom(
  localAddress: string,
  url: string,
  method: string,
  headers: Record<string, string>,
  payload: string | undefined,
): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method,
        localAddress,
        headers,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    outgoing.on('error', reject);
    if (payload) outgoing.write(payload);
    outgoing.end();
  });
}

/**
 * Fails with the whole envelope unless the call worked (error 0); afterwards `body.data` has the
 * call's type.
 */
export function expectOk<T>(body: ApiEnvelope<T>): asserts body is ApiSuccess<T> {
  expect(body.error, JSON.stringify(body)).toBe(0);
}

/** Fails saying what was missing unless `value` is there (neither undefined nor null); returns it. */
export function expectDefined<T>(value: T, what: string): NonNullable<T> {
  expect(value, `${what} is missing`).toBeDefined();
  expect(value, `${what} is missing`).not.toBeNull();
  return value as NonNullable<T>;
}

/** An answer as it came: status, headers and bytes. */
export interface RawResponse {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/**
 * GETs `<server.baseUrl>/api/<path>` and returns the answer as it came, for what is not a JSON
 * envelope: raw messages, attachments, exports, a payment gateway's notice, the headers themselves.
 */
export async function getRaw(
  server: { baseUrl: string },
  path: string,
  options: { token?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${server.baseUrl}/api/${path.replace(/^\//, '')}`, { headers });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}
