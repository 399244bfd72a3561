import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import { createHealthService, type FileSystemStats } from './health-service.js';

const MIB = 1024 * 1024;
const databases: Kysely<Database>[] = [];
afterEach(async () => {
  for (const db of databases.splice(0)) await db.destroy();
});

function service(stats: FileSystemStats | Error, metricsToken: string | null = null) {
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }),
  });
  databases.push(db);
  const health = createHealthService({
    db,
    dataDir: '/nowhere',
    metricsToken,
    fileSystemStats: async () => {
      if (stats instanceof Error) throw stats;
      return stats;
    },
  });
  health.trackSmtpListener({ listening: () => true, sessions: () => 3 });
  return health;
}

/** A file system of `totalMiB` with `freeMiB` free, in 4 KiB blocks. */
function disk(totalMiB: number, freeMiB: number): FileSystemStats {
  return { bsize: 4096, blocks: (totalMiB * MIB) / 4096, bavail: (freeMiB * MIB) / 4096 };
}

describe('readiness: free disk', () => {
  it('is ready with at least 100 MiB and 1 % free', async () => {
    expect((await service(disk(10_000, 100)).readiness()).ready).toBe(true);
  });

  it('is not ready under 100 MiB, even when that is more than 1 %', async () => {
    const readiness = await service(disk(1_000, 99)).readiness();
    expect(readiness.failed).toEqual(['disk']);
    expect(readiness.checks.disk.detail).toMatch(/99 MiB free/);
  });

  it('is not ready under 1 %, even when that is more than 100 MiB', async () => {
    expect((await service(disk(1_000_000, 9_000)).readiness()).failed).toEqual(['disk']);
  });

  it('is not ready when statfs fails', async () => {
    const readiness = await service(new Error('ENOENT')).readiness();
    expect(readiness.failed).toEqual(['disk']);
    expect(readiness.checks.disk.detail).toMatch(/ENOENT/);
  });
});

describe('who may read the metrics', () => {
  const token = 'a-metrics-token-of-some-length';

  it('lets loopback clients in, over IPv4, IPv6 and IPv4-mapped IPv6', () => {
    const health = service(disk(10_000, 5_000));
    for (const ip of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) {
      expect(() => health.authorizeMetrics({ ip, forwarded: false })).not.toThrow();
    }
    expect(health.smtpSessions()).toBe(3);
  });

  it('refuses other clients, proxied loopback requests and wrong tokens; accepts the token', () => {
    const health = service(disk(10_000, 5_000), token);
    const refused = (request: Parameters<typeof health.authorizeMetrics>[0]) => {
      try {
        health.authorizeMetrics(request);
        return false;
      } catch (error) {
        return error instanceof ApiError;
      }
    };
    expect(refused({ ip: '10.0.0.1', forwarded: false })).toBe(true);
    expect(refused({ ip: '::ffff:10.0.0.1', forwarded: false })).toBe(true);
    expect(refused({ ip: '127.0.0.1', forwarded: true })).toBe(true);
    expect(refused({ ip: '10.0.0.1', forwarded: false, authorization: `Bearer ${token}x` })).toBe(true);
    expect(refused({ ip: '10.0.0.1', forwarded: false, authorization: 'Bearer short' })).toBe(true);
    expect(refused({ ip: '10.0.0.1', forwarded: false, authorization: token })).toBe(true);
    expect(refused({ ip: '10.0.0.1', forwarded: false, authorization: `Bearer ${token}` })).toBe(false);
    expect(refused({ ip: '127.0.0.1', forwarded: true, authorization: `bearer ${token}` })).toBe(false);
  });
});
