import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './user-agent.js';

describe('describeUserAgent', () => {
  it('names the common systems and browsers in Chinese', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      ),
    ).toBe('Windows 电脑 · Chrome 浏览器 120');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('iPhone · Safari 浏览器 17');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0.2210.91',
      ),
    ).toBe('Mac 电脑 · Edge 浏览器 120');
    expect(describeUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0')).toBe(
      'Linux 电脑 · Firefox 浏览器 121',
    );
  });
  it('recognises programs and gives up politely', () => {
    expect(describeUserAgent('curl/8.4.0')).toBe('命令行或程序（curl）');
    expect(describeUserAgent('')).toBe('未知设备');
    expect(describeUserAgent('something odd')).toBe('未知设备');
  });
});
