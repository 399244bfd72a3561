import { readFileSync } from 'node:fs';

/** The release version, from the root package.json, read once at start. */
function readVersion(): string {
  try {
    const root = new URL('../../../package.json', import.meta.url);
    return (JSON.parse(readFileSync(root, 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

export const APP_VERSION = readVersion();
export const STARTED_AT = Date.now();
