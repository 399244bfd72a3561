import vm from 'node:vm';

/**
 * Runs user-supplied regular expressions without letting one hang the server. JavaScript regexes
 * backtrack, so a pattern such as `^(a+)+$` takes exponential time on a crafted subject; mail is
 * crafted by strangers. Each test runs in a separate `vm` context with a time limit: V8 interrupts
 * the regex engine when the limit passes, and the filter then simply does not match (and is
 * reported). Subjects are also cut to a bounded length, which bounds polynomial blow-ups.
 */
const TIME_LIMIT_MS = 50;
const MAX_SUBJECT_LENGTH = 64 * 1024;

const context = vm.createContext(Object.create(null));
const script = new vm.Script('new RegExp(source, flags).test(subject)');

export type RegexOutcome = 'match' | 'no-match' | 'timeout';

export function testRegex(source: string, subject: string): RegexOutcome {
  Object.assign(context, { source, flags: 'iu', subject: subject.slice(0, MAX_SUBJECT_LENGTH) });
  try {
    return script.runInContext(context, { timeout: TIME_LIMIT_MS }) === true ? 'match' : 'no-match';
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timeout';
    return 'no-match';
  } finally {
    Object.assign(context, { source: '', subject: '' });
  }
}

/** Why a pattern cannot be used, in Chinese, or null when it compiles. */
export function regexProblem(source: string): string | null {
  try {
    new RegExp(source, 'iu');
    return null;
  } catch (error) {
    return `正则表达式无效：${(error as Error).message.replace(/^Invalid regular expression: /, '')}，请检查括号、转义和量词`;
  }
}
