// Static properties of the deployment files (Dockerfile, compose.yaml, deploy/youju.service) that a
// careless edit could lose: the base image, the non-root user, the volume and health check, the
// hardening of the systemd unit, the wiring of PostgreSQL. Building and running them is in
// README.md ("Production"); this only reads them.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path) => readFileSync(`${root}${path}`, 'utf8');

/** The instructions of a Dockerfile, continuation lines joined, comments dropped. */
function instructions(text) {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

/** `Key=value` lines of a unit's section, as a map of key to every value given. */
function unitSection(text, section) {
  const body = text.split(/^\[/m).find((part) => part.startsWith(`${section}]`)) ?? '';
  const entries = new Map();
  for (const line of body.split('\n').slice(1)) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match) entries.set(match[1], [...(entries.get(match[1]) ?? []), match[2]]);
  }
  return entries;
}

describe('Dockerfile', () => {
  const lines = instructions(read('Dockerfile'));
  const froms = lines.filter((line) => line.startsWith('FROM '));
  const final = lines.slice(lines.lastIndexOf(froms.at(-1)));

  it('builds in one stage and runs in another, both on node:20-bookworm-slim', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) expect(from).toMatch(/^FROM node:20-bookworm-slim\b/);
    expect(lines.some((line) => /^RUN .*npm (ci|install)\b/.test(line))).toBe(true);
    expect(lines.some((line) => /^RUN .*(npm run build|scripts\/build\.mjs)/.test(line))).toBe(true);
    // production dependencies only in what runs
    expect(lines.some((line) => /npm prune --omit=dev/.test(line))).toBe(true);
    expect(final.some((line) => /^COPY --from=build\b/.test(line))).toBe(true);
    expect(final.some((line) => /^RUN .*npm (ci|install)\b/.test(line))).toBe(false);
  });

  it('runs as an unprivileged user with its state in the /data volume', () => {
    const user = final.filter((line) => line.startsWith('USER ')).at(-1);
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER (root|0)(:|$)/);
    expect(final.join('\n')).toMatch(/DATA_DIR=\/data\b/);
    expect(final.some((line) => /^VOLUME .*\/data/.test(line))).toBe(true);
  });

  it('exposes the listeners, checks /healthz and stops with SIGTERM', () => {
    const exposed = final
      .filter((line) => line.startsWith('EXPOSE '))
      .flatMap((line) => line.slice(7).split(/\s+/))
      .map(Number);
    for (const port of [8080, 2525, 1587, 1143, 1110]) expect(exposed).toContain(port);
    expect(final.some((line) => /^HEALTHCHECK .*\/healthz/.test(line))).toBe(true);
    expect(final).toContain('STOPSIGNAL SIGTERM');
  });

  it('has a .dockerignore that keeps installed and built trees out of the context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['**/node_modules', '**/dist', '.git', 'data']) expect(ignored).toContain(entry);
  });
});

describe('compose.yaml', () => {
  const text = read('compose.yaml');

  it('runs Youju beside PostgreSQL 15 with a volume and a health check, wired through DATABASE_URL', () => {
    expect(text).toMatch(/image: postgres:15\b/);
    expect(text).toMatch(/postgres-data:\/var\/lib\/postgresql\/data/);
    expect(text).toMatch(/healthcheck:\s*\n\s*test: .*pg_isready/);
    expect(text).toMatch(/condition: service_healthy/);
    expect(text).toMatch(/DATABASE_URL: postgres:\/\/youju:\$\{POSTGRES_PASSWORD\}@postgres:5432\/youju/);
    expect(text).toMatch(/youju-data:\/data/);
    // the clean shutdown takes up to 10 s: the grace must be longer
    expect(text).toMatch(/stop_grace_period: 1[5-9]s/);
  });
});

describe('deploy/youju.service', () => {
  const text = read('deploy/youju.service');
  const service = unitSection(text, 'Service');
  const one = (key) => service.get(key)?.at(-1);

  it('is hardened', () => {
    expect(one('User')).toBe('youju');
    expect(one('NoNewPrivileges')).toBe('yes');
    expect(one('ProtectSystem')).toBe('strict');
    expect(one('ProtectHome')).toBe('yes');
    expect(one('PrivateTmp')).toBe('yes');
    expect(one('LockPersonality')).toBe('yes');
    expect(one('AmbientCapabilities')).toBe('CAP_NET_BIND_SERVICE');
    expect(one('CapabilityBoundingSet')).toBe('CAP_NET_BIND_SERVICE');
    expect(one('ReadWritePaths')).toBe('/var/lib/youju');
    expect(service.get('Environment')).toContain('DATA_DIR=/var/lib/youju');
    expect(one('RestrictAddressFamilies')?.split(' ').sort()).toEqual(
      ['AF_INET', 'AF_INET6', 'AF_NETLINK', 'AF_UNIX'].sort(),
    );
    // V8's JIT writes code and then runs it: MemoryDenyWriteExecute=yes would kill Node at start
    expect(service.has('MemoryDenyWriteExecute')).toBe(false);
  });

  it('stops with SIGTERM, waits longer than the 10 s shutdown, restarts on failure', () => {
    expect(one('KillSignal')).toBe('SIGTERM');
    expect(Number(one('TimeoutStopSec'))).toBeGreaterThan(10);
    expect(one('Restart')).toBe('on-failure');
    expect(one('ExecStart')).toMatch(/apps\/server\/dist\/server\.js$/);
  });

  it('passes systemd-analyze verify where systemd is installed', () => {
    if (!existsSync('/usr/bin/systemd-analyze')) return;
    // prints nothing (no warning either) and exits 0 when the unit is valid
    const result = spawnSync('systemd-analyze', ['verify', `${root}deploy/youju.service`], {
      encoding: 'utf8',
    });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
