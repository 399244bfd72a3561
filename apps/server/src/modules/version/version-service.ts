import { readFile } from 'node:fs/promises';
import type { VersionInfo } from '@youju/contract';
import type { Engine } from '../../db/database.js';
import { SCHEMA_VERSION } from '../../db/migrate.js';
import { APP_VERSION, STARTED_AT } from '../../version.js';

interface BuildInfo {
  commit: string | null;
  date: string | null;
}

/** Relative to this file in src/ and in dist/ alike. */
const ROOT = new URL('../../../../../', import.meta.url);
/** Written by scripts/build.mjs beside the compiled server. */
const BUILD_INFO = new URL('../../build-info.json', import.meta.url);

async function readBuildInfo(): Promise<BuildInfo> {
  try {
    const parsed = JSON.parse(await readFile(BUILD_INFO, 'utf8')) as Partial<BuildInfo>;
    return {
      commit: typeof parsed.commit === 'string' && parsed.commit ? parsed.commit : null,
      date: typeof parsed.date === 'string' && !Number.isNaN(Date.parse(parsed.date)) ? parsed.date : null,
    };
  } catch {
    // Not built with scripts/build.mjs (tests, development): nothing to say about the build.
    return { commit: null, date: null };
  }
}

async function readChangelog(): Promise<string> {
  try {
    return await readFile(new URL('CHANGELOG.md', ROOT), 'utf8');
  } catch {
    return '';
  }
}

/** What /user/version shows: the running release, its build, its platform and its changelog. */
export function createVersionService(engine: Engine) {
  let cached: Promise<{ build: BuildInfo; changelog: string }> | null = null;
  return {
    async info(now = Date.now()): Promise<VersionInfo> {
      // The files belong to the release and do not change while it runs.
      cached ??= Promise.all([readBuildInfo(), readChangelog()]).then(([build, changelog]) => ({
        build,
        changelog,
      }));
      const { build, changelog } = await cached;
      return {
        version: APP_VERSION,
        commit: build.commit,
        buildDate: build.date,
        node: process.version,
        engine,
        schemaVersion: SCHEMA_VERSION,
        startedAt: new Date(STARTED_AT).toISOString(),
        uptimeSeconds: Math.max(0, Math.floor((now - STARTED_AT) / 1000)),
        changelog,
      };
    },
  };
}

export type VersionService = ReturnType<typeof createVersionService>;
