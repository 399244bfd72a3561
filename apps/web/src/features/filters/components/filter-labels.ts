import type { Filter } from '@youju/contract';

type Field = Filter['field'];
type Match = Filter['match'];
type Action = Filter['action'];

export const fieldLabels: Record<Field, string> = {
  from: '发件人',
  to: '收件人',
  subject: '主题',
  body: '正文',
};

export const matchLabels: Record<Match, string> = {
  contains: '包含',
  equals: '等于',
  regex: '正则表达式',
};

export const actionLabels: Record<Action, string> = {
  reject: '拒收',
  discard: '丢弃',
  spam: '标为垃圾邮件',
};

/** One line per action, shown beside the choice and in the list. */
export const actionHelp: Record<Action, string> = {
  reject: '拒收：收信时直接退回，发件方会收到退信（550）。',
  discard: '丢弃：对发件方表示已收下，但邮件不保存，收件箱里看不到。',
  spam: '标为垃圾邮件：照常保存，在收件箱中标记为垃圾邮件。',
};

export function optionsOf<T extends string>(labels: Record<T, string>) {
  return (Object.entries(labels) as [T, string][]).map(([value, label]) => ({ value, label }));
}
