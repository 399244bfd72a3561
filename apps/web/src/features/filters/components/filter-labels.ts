import type { Filter } from '@youju/contract';
import { t } from '../../../lib/i18n';

type Field = Filter['field'];
type Match = Filter['match'];
type Action = Filter['action'];

// Functions, not constants: a label is read in the current language when shown, never once at import.

export const fieldLabels = (): Record<Field, string> => ({
  from: t('发件人'),
  to: t('收件人'),
  subject: t('主题'),
  body: t('正文'),
});

export const matchLabels = (): Record<Match, string> => ({
  contains: t('包含'),
  equals: t('等于'),
  regex: t('正则表达式'),
});

export const actionLabels = (): Record<Action, string> => ({
  reject: t('拒收'),
  discard: t('丢弃'),
  spam: t('标为垃圾邮件'),
});

/** One line per action, shown beside the choice and in the list. */
export const actionHelp = (): Record<Action, string> => ({
  reject: t('拒收：收信时直接退回，发件方会收到退信（550）。'),
  discard: t('丢弃：对发件方表示已收下，但邮件不保存，收件箱里看不到。'),
  spam: t('标为垃圾邮件：照常保存，在收件箱中标记为垃圾邮件。'),
});

export function optionsOf<T extends string>(labels: Record<T, string>) {
  return (Object.entries(labels) as [T, string][]).map(([value, label]) => ({ value, label }));
}
