import type { Browser, BrowserServer } from 'playwright-core';

export const chromiumPath: string;
export const SHARED_BROWSER_ENV: string;
export function launchBrowser(): Promise<Browser>;
export function launchSharedBrowser(): Promise<BrowserServer>;
