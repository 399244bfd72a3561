import { RE2JS } from 're2js';

/**
 * User-supplied regular expressions, run by RE2JS: a port of RE2, whose automaton runs in time
 * linear in the text whatever the pattern (no backtracking), so `(a+)+$` on a crafted message costs
 * what `a+` costs. Patterns RE2 cannot run in linear time (backreferences, lookaround) are refused
 * when the filter is added. The text a pattern sees is bounded too (MAX_TEXT_CHARS), and so is
 * the number of patterns per account (filter-service.ts), so the work per message has a ceiling.
 */
export const MAX_PATTERN_LENGTH = 500;
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
    RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
    return null;
  } catch (error) {
    const detail = (error as Error).message.replace(/^error parsing regexp: /, '');
    if (/\\\d|\(\?[=!<]/.test(source) || /Perl syntax|escape sequence/.test(detail)) {
      return `正则表达式使用了不支持的写法（${detail}）：为保证收信速度，不支持反向引用（如 \\1）和前后断言（如 (?=…)、(?!…)），请改用普通的分组和字符类`;
    }
    return `正则表达式无效（${detail}），请检查括号、转义和量词`;
  }
}
