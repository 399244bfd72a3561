import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type ApiCaller, apiAs, apiLogin } from './api';
import { launchBrowser, newPage, openWithToken } from './browser';
import { type RunningServer, type ServerOptions, startServer } from './server';

/** What a browser test file runs against: its own server and browser, and the first administrator. */
export interface BrowserSuite {
  readonly server: RunningServer;
  /** http://127.0.0.1:<port> of the server */
  readonly baseUrl: string;
  readonly browser: Browser;
  /** the first administrator's token (absent on a server started without one) */
  readonly adminToken: string;
  /** API calls as the first administrator */
  readonly admin: ApiCaller;
  /** API calls as the holder of `token`, or anonymously */
  api(token?: string): ApiCaller;
  /** Logs a system account in through the API and returns its token. */
  login(username: string, password: string): Promise<string>;
  /** A fresh page in its own context (see `newPage`), on the device `options` describe. */
  newPage(options?: BrowserContextOptions): Promise<{ context: BrowserContext; page: Page }>;
  /** A fresh page of a returning visitor holding `token`, opened at `path`. */
  openAs(token: string, path: string, options?: BrowserContextOptions): Promise<Page>;
}

/**
 * The one way a browser test file starts what it needs: called in its `describe`, it starts the
 * built server (fresh data directory, free ports) and headless Chromium before the tests, logs the
 * first administrator in, and stops both afterwards. `options` may be a function when the server's
 * environment must be prepared first (e.g. a DNS server's port).
 */
export function setUpBrowserSuite(
  options: ServerOptions | (() => Promise<ServerOptions>) = {},
): BrowserSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let adminToken: string | undefined;

  beforeAll(async () => {
    const resolved = typeof options === 'function' ? await options() : options;
    server = await startServer(resolved);
    browser = await launchBrowser();
    if (resolved.initialAdmin !== false) {
      adminToken = await apiLogin(server.baseUrl, server.adminUser, server.adminPassword);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what}还没有启动（只能在测试和 beforeAll 之后使用）`);
    return value;
  };
  const suite: BrowserSuite = {
    get server() {
      return started(server, '服务器');
    },
    get baseUrl() {
      return suite.server.baseUrl;
    },
    get browser() {
      return started(browser, '浏览器');
    },
    get adminToken() {
      return started(adminToken, '管理员登录');
    },
    get admin() {
      return apiAs(suite.baseUrl, suite.adminToken);
    },
    api: (token) => apiAs(suite.baseUrl, token),
    login: (username, password) => apiLogin(suite.baseUrl, username, password),
    newPage: (options) => newPage(suite.browser, options),
    openAs: async (token, path, options) => {
      const { page } = await newPage(suite.browser, options);
      await openWithToken(page, suite.baseUrl, token, path);
      return page;
    },
  };
  return suite;
}
