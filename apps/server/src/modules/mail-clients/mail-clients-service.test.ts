import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autodiscoverAddress, plainAddress, xmlEscape } from './mail-clients-service.js';

describe('mail-client autoconfiguration helpers', () => {
  it('xmlEscape leaves no markup and no character XML forbids, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (input) => {
        const escaped = xmlEscape(input);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(escaped.replace(/&#\d+;/g, '')).not.toContain('&');
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters that must be gone
        expect(escaped).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
      }),
      { numRuns: 500 },
    );
    expect(xmlEscape('a<b>&"c\'\u0001😀')).toBe('a&#60;b&#62;&#38;&#34;c&#39;😀');
  });

  it('plainAddress accepts plain addresses only', () => {
    expect(plainAddress(' ZhangSan@Example.COM ')).toBe('zhangsan@example.com');
    for (const bad of [
      '',
      'a',
      'a@b',
      '<a@b.test>',
      'a b@c.test',
      'a@b.test\r\nX: y',
      `${'x'.repeat(65)}@b.test`,
      3,
      null,
    ]) {
      expect(plainAddress(bad)).toBeNull();
    }
  });

  it('autodiscoverAddress reads EMailAddress with or without a prefix, and never expands entities', () => {
    expect(autodiscoverAddress('<Request><EMailAddress>a@b.test</EMailAddress></Request>')).toBe('a@b.test');
    expect(autodiscoverAddress('<x:EMailAddress >A@B.test</x:EMailAddress>')).toBe('a@b.test');
    expect(
      autodiscoverAddress('<!DOCTYPE a [<!ENTITY e "a@b.test">]><EMailAddress>&e;</EMailAddress>'),
    ).toBeNull();
    expect(autodiscoverAddress('<EMailAddress>a@b.test')).toBeNull();
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (body) => {
        const address = autodiscoverAddress(body);
        expect(address === null || plainAddress(address) === address).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
