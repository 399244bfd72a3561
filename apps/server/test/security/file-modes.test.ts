import { chmod, mkdir, mkdtemp, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../sending/sending-helpers.js';
import { expectOk } from '../support/api.js';
import { createAddress, createUserWithDomain } from '../support/fixtures.js';
import { sendMail, simpleMessage } from '../support/smtp-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

async function modes(directory: string): Promise<{ path: string; mode: number; directory: boolean }[]> {
  const found = [{ path: directory, mode: (await stat(directory)).mode & 0o777, directory: true }];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) found.push(...(await modes(path)));
    else if (entry.isFile()) found.push({ path, mode: (await stat(path)).mode & 0o777, directory: false });
  }
  return found;
}

/** The database, keys and secrets were written 0644, readable by every local user. */
describe('data directory permissions', () => {
  let server: TestServer;
  let before: string;
  beforeAll(async () => {
    before = await mkdtemp(join(tmpdir(), 'youju-modes-'));
    server = await startTestServer({
      // A data directory an older version (or a careless copy) left open to everyone.
      prepareDataDir: async (dataDir) => {
        await chmod(dataDir, 0o755);
        await mkdir(join(dataDir, 'certs'), { recursive: true, mode: 0o755 });
        await writeFile(join(dataDir, 'certs', 'notes.txt'), 'old', { mode: 0o644 });
      },
    });
  });
  afterAll(async () => server?.close());

  it('keeps every folder 0700 and every file 0600, after start and after use', async () => {
    const world = await createUserWithDomain(server, 'modes');
    const { address } = await createAddress(server, world, 'inbox');
    expect(
      (await sendMail(server.smtpPort, { to: [address], content: simpleMessage(address, 'm', 'b') })).data
        ?.code,
    ).toBe(250);
    const admin = await server.adminToken();
    await server.api('POST', 'user/addDomain', { token: admin, body: { name: 'keys.modes.test' } });
    const box = await server.api('POST', 'user/createEmailAccount', {
      token: world.userToken,
      body: { domainId: world.domainId, localPart: 'uploader', password: 'upload-pass-1' },
    });
    expectOk(box.body);
    const login = await server.api('POST', 'loginEmail', {
      body: { email: `uploader@${world.domain}`, password: 'upload-pass-1' },
    });
    expectOk(login.body);
    expect((await upload(server, login.body.data.token, Buffer.alloc(1000, 1), 'a.bin')).status).toBe(200);
    const entries = await modes(server.dataDir);
    expect(entries.length).toBeGreaterThan(3);
    for (const entry of entries) {
      expect(entry.mode.toString(8), entry.path).toBe(entry.directory ? '700' : '600');
    }
    expect(before).toBeTruthy();
  });
});
