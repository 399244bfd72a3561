import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/api.js';
import { addDomain } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Issue 17 item 3: a one-click temporary mailbox comes with a credential that brings it back. */
describe('a temporary mailbox you keep', () => {
  let server: TestServer;
  let domain: { id: number; name: string };
  beforeAll(async () => {
    server = await startTestServer();
    domain = await addDomain(server, await server.adminToken(), 'keep.youju.test', {
      publicRegistration: true,
    });
  });
  afterAll(async () => server.close());

  const row = (address: string) =>
    server.app.database.db
      .selectFrom('mailboxes')
      .selectAll()
      .where('address', '=', address)
      .executeTakeFirstOrThrow();

  it('returns the credential once, keeps only its hash, and logs back in with it', async () => {
    const reg = await server.api('POST', 'regEmail', { body: { domainId: domain.id } });
    expectOk(reg.body);
    const { email, credential } = reg.body.data;
    expect(credential).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){4}$/);
    const stored = await row(email);
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    expect(stored.password_hash).not.toContain(credential);
    expect(stored.password_generated).toBe(1);
    expect(stored.source).toBe('temporary');
    expect(stored.expires_at).not.toBeNull();

    // Nothing hands it out again: a second registration gives another one, getVar none.
    const other = await server.api('POST', 'regEmail', { body: { domainId: domain.id } });
    expect(other.body.data?.credential).not.toBe(credential);
    const vars = await server.api('GET', 'getVar', { token: reg.body.data.token });
    expect(JSON.stringify(vars.body)).not.toContain(credential);

    await server.api('GET', 'user/logout', { token: reg.body.data.token });
    const login = await server.api('POST', 'loginEmail', { body: { email, password: credential } });
    expect(login.body).toMatchObject({ error: 0, data: { email } });
    const wrong = await server.api('POST', 'loginEmail', {
      body: { email, password: `${credential}x` },
    });
    expect(wrong.body).toMatchObject({ error: 400, msg: '邮箱地址或密码错误' });
  });

  it('a registration with a password gets no credential', async () => {
    const reg = await server.api('POST', 'regEmail', {
      body: { domainId: domain.id, localPart: 'chosen', password: 'mailbox-pass' },
    });
    expectOk(reg.body);
    expect(reg.body.data.credential).toBeUndefined();
    expect((await row('chosen@keep.youju.test')).password_generated).toBe(0);
  });

  it('sets the first password without the old one, once; afterwards the old one is asked', async () => {
    const reg = await server.api('POST', 'regEmail', { body: { domainId: domain.id } });
    expectOk(reg.body);
    const { email, credential, token } = reg.body.data;
    const first = await server.api('POST', 'user/changePassword', {
      token,
      body: { newPassword: 'my-own-pass' },
    });
    expectOk(first.body);
    expect((await row(email)).password_generated).toBe(0);
    // the generated credential no longer works, the chosen password does
    expect(
      (await server.api('POST', 'loginEmail', { body: { email, password: credential } })).body.error,
    ).toBe(400);
    const login = await server.api('POST', 'loginEmail', { body: { email, password: 'my-own-pass' } });
    expectOk(login.body);
    // second time: a session without the old password is refused
    const again = await server.api('POST', 'user/changePassword', {
      token: first.body.data.token,
      body: { newPassword: 'attacker-pass' },
    });
    expect(again.body).toMatchObject({ error: 400, msg: '请输入原密码' });
    const wrongOld = await server.api('POST', 'user/changePassword', {
      token: first.body.data.token,
      body: { oldPassword: 'not-it', newPassword: 'attacker-pass' },
    });
    expect(wrongOld.body).toMatchObject({ error: 400, msg: '原密码不正确' });
  });

  it('a wrong old password is refused even on the first set; the credential works as the old one', async () => {
    const reg = await server.api('POST', 'regEmail', { body: { domainId: domain.id } });
    expectOk(reg.body);
    const { credential, token } = reg.body.data;
    const wrong = await server.api('POST', 'user/changePassword', {
      token,
      body: { oldPassword: 'not-the-credential', newPassword: 'my-own-pass' },
    });
    expect(wrong.body).toMatchObject({ error: 400, msg: '原密码不正确' });
    const right = await server.api('POST', 'user/changePassword', {
      token,
      body: { oldPassword: credential, newPassword: 'my-own-pass' },
    });
    expectOk(right.body);
  });

  it('an older temporary mailbox without any password sets its first one without an old one', async () => {
    const reg = await server.api('POST', 'regEmail', { body: { domainId: domain.id } });
    expectOk(reg.body);
    const { email, token } = reg.body.data;
    await server.app.database.db
      .updateTable('mailboxes')
      .set({ password_hash: null, password_generated: 0 })
      .where('address', '=', email)
      .execute();
    const first = await server.api('POST', 'user/changePassword', {
      token,
      body: { newPassword: 'my-own-pass' },
    });
    expectOk(first.body);
    expectOk((await server.api('POST', 'loginEmail', { body: { email, password: 'my-own-pass' } })).body);
  });

  it('refuses the empty old password to registered mailboxes, system accounts and strangers', async () => {
    const reg = await server.api('POST', 'regEmail', {
      body: { domainId: domain.id, localPart: 'registered', password: 'mailbox-pass' },
    });
    expectOk(reg.body);
    const registered = await server.api('POST', 'user/changePassword', {
      token: reg.body.data.token,
      body: { newPassword: 'attacker-pass' },
    });
    expect(registered.body).toMatchObject({ error: 400, msg: '请输入原密码' });
    const admin = await server.api('POST', 'user/changePassword', {
      token: await server.adminToken(),
      body: { newPassword: 'attacker-pass' },
    });
    expect(admin.body).toMatchObject({ error: 400, msg: '请输入原密码' });
    const anonymous = await server.api('POST', 'user/changePassword', {
      body: { newPassword: 'attacker-pass' },
    });
    expect(anonymous.status).toBe(401);
    // A mailbox an owner created without a password is not a one-click mailbox: no first-set path.
    const temp = await server.api('POST', 'regEmail', { body: { domainId: domain.id } });
    expectOk(temp.body);
    await server.app.database.db
      .updateTable('mailboxes')
      .set({ source: 'admin' })
      .where('address', '=', temp.body.data.email)
      .execute();
    const notOneClick = await server.api('POST', 'user/changePassword', {
      token: temp.body.data.token,
      body: { newPassword: 'attacker-pass' },
    });
    expect(notOneClick.body).toMatchObject({ error: 400, msg: '请输入原密码' });
  });
});
