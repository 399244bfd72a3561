import { RE2JS } from 're2js';

/**
 * User-supplied regular expressions, run by RE2JS: a port of RE2, whose automaton runs in time
 * linear in the text whatever the pattern (no backtracking), so `(a+)+$` on a crafted message costs
 * what `a+` costs. Patterns RE2 cannot run in linear time (backreferences, lookaround) are refused
 * when the filter is added. The text a pattern sees is bounded too (MAX_TEXT_CHARS), and so is
 * the number of patterns per account (filter-service.ts), so the work per message has a ceiling.
 */
export const MAX_PATTERN_LENGTH = 500;
/**
 * RE2 program instructions a pattern may compile to. Linear time still scales with the program:
 * `.{1,1000}x` compiles to 2000 instructions and takes ~0.4 s on 16 KiB, while ordinary filters
 * stay under a few dozen. Read from re2js's compiled program (re2js is pinned to an exact version).
 */
export const MAX_PROGRAM_SIZE = 300;
/** characters of one field a pattern is matched against (the body's start holds what filters look for) */
export const MAX_TEXT_CHARS = 16 * 1024;

const compiled = new Map<string, RE2JS>();
const CACHE_SIZE = 1000;

/** The compiled pattern (case-insensitive, like the other match kinds), from a bounded cache. */
function compile(source: string): RE2JS {
  let pattern = compiled.get(source);
  if (pattern) {
    compiled.delete(source);
  } else {
    pattern = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
    if (compiled.size >= CACHE_SIZE) {
      const oldest = compiled.keys().next().value;
      if (oldest !== undefined) compiled.delete(oldest);
    }
  }
  compiled.set(source, pattern);
  return pattern;
}

/** Whether `source` matches anywhere in `text`; a pattern that no longer compiles never matches. */
export function patternMatches(source: string, text: string): boolean {
  try {
    return compile(source).matcher(text.slice(0, MAX_TEXT_CHARS)).find();
  } catch {
    return false;
  }
}

/** Why a pattern cannot be used, in Chinese, or null when it can. */
export function patternProblem(source: string): string | null {
  if (source.length > MAX_PATTERN_LENGTH) {
    return `正则表达式过长：最多 ${MAX_PATTERN_LENGTH} 个字符`;
  }
  try {
    const compiled = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
    const size = (compiled as unknown as { re2Input?: { prog?: { inst?: unknown[] } } }).re2Input?.prog?.inst
      ?.length;
    if (size !== undefined && size > MAX_PROGRAM_SIZE) {
      return '正则表达式过于复杂（例如很大的重复次数 {1,1000}），会拖慢收信，请改用更短的重复次数或“包含”匹配';
    }
    return null;
  } catch (error) {
    const detail = (error as Error).message.replace(/^error parsing regexp: /, '');
    if (/\\\d|\(\?[=!<]/.test(source) || /Perl syntax|escape sequence/.test(detail)) {
      return `正则表达式使用了不支持的写法（${detail}）：为保证收信速度，不支持反向引用（如 \\1）和前后断言（如 (?=…)、(?!…)），请改用普通的分组和字符类`;
    }
    return `正则表达式无效（${detail}），请检查括号、转义和量词`;
  }
}
