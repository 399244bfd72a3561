import { describe, expect, it } from 'vitest';
import { regexProblem, testRegex } from './regex-guard.js';

describe('regex guard', () => {
  it('matches ordinary patterns case-insensitively', () => {
    expect(testRegex('发票|invoice', 'Your INVOICE is ready')).toBe('match');
    expect(testRegex('^spam$', 'not spam')).toBe('no-match');
  });

  it('stops a catastrophic pattern within the time limit', () => {
    const started = Date.now();
    expect(testRegex('^(a+)+$', `${'a'.repeat(5000)}!`)).toBe('timeout');
    expect(testRegex('(x+x+)+y', 'x'.repeat(100_000))).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('explains a bad pattern in Chinese', () => {
    expect(regexProblem('(abc')).toMatch(/正则表达式无效/);
    expect(regexProblem('[a-')).toMatch(/正则表达式无效/);
    expect(regexProblem('a{2}')).toBeNull();
  });
});
