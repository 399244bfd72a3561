import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLanguage, toEnglish } from '../../src/lib/i18n/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('the language of the API’s messages', () => {
  it('follows Accept-Language: the first language we speak, by quality; Chinese otherwise', () => {
    expect(requestLanguage(undefined)).toBe('zh-CN');
    expect(requestLanguage('en')).toBe('en');
    expect(requestLanguage('en-US,en;q=0.9')).toBe('en');
    expect(requestLanguage('fr-FR, en;q=0.5, zh-CN;q=0.8')).toBe('zh-CN');
    expect(requestLanguage('de, en-GB;q=0.3')).toBe('en');
    expect(requestLanguage('en;q=0, zh')).toBe('zh-CN');
    expect(requestLanguage('*')).toBe('zh-CN');
    expect(requestLanguage(`${'x,'.repeat(10_000)}en`)).toBe('zh-CN');
  });

  it('translates exact messages and messages with values, leaving what it does not know', () => {
    expect(toEnglish('请求体为空，请提交 JSON 数据')).toBe('The request body is empty; send JSON data');
    expect(toEnglish('接口不存在：GET /api/nope')).toBe('No such API call: GET /api/nope');
    expect(toEnglish('一条没有英文的消息')).toBe('一条没有英文的消息');
    expect(toEnglish('plain English')).toBe('plain English');
  });
});

describe('over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  async function unknownCall(language?: string) {
    const response = await fetch(`${server.baseUrl}/api/no-such-call`, {
      headers: language ? { 'Accept-Language': language } : {},
    });
    return (await response.json()) as { error: number; msg: string };
  }

  it('answers a failure in English when asked, in Chinese by default', async () => {
    expect((await unknownCall()).msg).toMatch(/^接口不存在/);
    expect((await unknownCall('zh-CN,zh;q=0.9')).msg).toMatch(/^接口不存在/);
    const english = await unknownCall('en-US,en;q=0.9');
    expect(english.msg).toBe('No such API call: GET /api/no-such-call');
    expect(english.error).toBe(404);
  });
});
