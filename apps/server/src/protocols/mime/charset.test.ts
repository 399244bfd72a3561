import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeBytes, isLegacyEightBit } from './charset.js';

describe('decodeBytes', () => {
  const chinese = '朱镕基与王喆在堃城开会：测试邮件';
  it('decodes GBK bytes labelled gb2312 (characters outside GB2312)', () => {
    expect(decodeBytes(iconv.encode(chinese, 'gbk'), 'gb2312')).toBe(chinese);
    expect(decodeBytes(iconv.encode(chinese, 'gbk'), 'GB2312')).toBe(chinese);
  });
  it('decodes GB18030 four-byte characters', () => {
    const text = '𠀀𪚥 中文';
    expect(decodeBytes(iconv.encode(text, 'gb18030'), 'gb18030')).toBe(text);
  });
  it('decodes Big5 and ISO-2022-JP', () => {
    expect(decodeBytes(iconv.encode('繁體中文測試', 'big5'), 'big5')).toBe('繁體中文測試');
    const jis = Buffer.from('1b2442467c4b5c386c1b2842', 'hex'); // 日本語 in ISO-2022-JP
    expect(decodeBytes(jis, 'iso-2022-jp')).toBe('日本語');
  });
  it('sniffs unlabelled 8-bit text', () => {
    expect(decodeBytes(Buffer.from('你好，世界', 'utf8'), undefined)).toBe('你好，世界');
    expect(decodeBytes(iconv.encode('你好，世界，这是一封没有字符集的信', 'gbk'), undefined)).toBe(
      '你好，世界，这是一封没有字符集的信',
    );
    expect(decodeBytes(iconv.encode('你好，这是一封信', 'gbk'), 'utf-8')).toBe('你好，这是一封信');
  });
  it('keeps real Latin-1 text', () => {
    expect(decodeBytes(Buffer.from('café crème', 'latin1'), 'iso-8859-1')).toBe('café crème');
    expect(decodeBytes(iconv.encode('中文内容测试', 'gbk'), 'iso-8859-1')).toBe('中文内容测试');
  });
});

describe('isLegacyEightBit', () => {
  it('tells raw GBK and Big5 from ASCII and UTF-8', () => {
    expect(isLegacyEightBit(iconv.encode('郑十一', 'gbk'))).toBe(true);
    expect(isLegacyEightBit(iconv.encode('報價單', 'big5'))).toBe(true);
    expect(isLegacyEightBit(Buffer.from('郑十一', 'utf8'))).toBe(false);
    expect(isLegacyEightBit(Buffer.from('plain ascii', 'latin1'))).toBe(false);
    expect(isLegacyEightBit(Buffer.from('Иван Петров', 'utf8'))).toBe(false);
    expect(isLegacyEightBit(Buffer.from('Ελένη', 'utf8'))).toBe(false);
    expect(isLegacyEightBit(Buffer.from('José Müller', 'utf8'))).toBe(false);
  });
  it('catches GBK names whose bytes happen to be valid UTF-8', () => {
    // D6 A3 CA AE D2 BB reads as UTF-8 "֣ʮһ" (Hebrew, IPA, Cyrillic)
    expect(isLegacyEightBit(iconv.encode('郑十一', 'gbk'))).toBe(true);
    expect(decodeBytes(iconv.encode('郑十一', 'gbk'))).toBe('郑十一');
  });
});
