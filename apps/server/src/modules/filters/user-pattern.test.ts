import { describe, expect, it } from 'vitest';
import { MAX_PATTERN_LENGTH, patternMatches, patternProblem } from './user-pattern.js';

describe('user patterns', () => {
  it('match case-insensitively, Chinese included', () => {
    expect(patternMatches('验证码[:：]\\s*\\d{6}', '您的验证码：123456')).toBe(true);
    expect(patternMatches('^hello', 'HELLO world')).toBe(true);
    expect(patternMatches('^hello', 'say hello')).toBe(false);
  });
  it('run catastrophic patterns in linear time', () => {
    const text = `${'a'.repeat(10_000)}!`;
    const started = performance.now();
    expect(patternMatches('(a+)+$', text)).toBe(false);
    expect(patternMatches('(x+x+)+y', 'x'.repeat(100_000))).toBe(false);
    // correctness bound, not a benchmark: a backtracking engine takes hours here
    expect(performance.now() - started).toBeLessThan(2000);
  });
  it('refuse what RE2 cannot run, and over-long or broken patterns, with a Chinese reason', () => {
    expect(patternProblem('(a)\\1')).toMatch(/反向引用/);
    expect(patternProblem('foo(?=bar)')).toMatch(/断言/);
    expect(patternProblem('(?<!x)y')).toMatch(/不支持/);
    expect(patternProblem('(unclosed')).toMatch(/无效/);
    expect(patternProblem('x'.repeat(MAX_PATTERN_LENGTH + 1))).toMatch(/过长/);
    expect(patternProblem('^(foo|bar)+\\d{2,4}$')).toBeNull();
    // linear, but a program of thousands of instructions: slow on every message
    expect(patternProblem('.{1,1000}x')).toMatch(/过于复杂/);
    expect(patternProblem('a.{200}c')).toBeNull();
  });
});
