import type { FolderMessageRow, MessageFlagChanges } from '../modules/mail/index.js';

/** System flags Youju keeps (RFC 3501 section 2.3.2); \Recent is not kept (RFC 9051 drops it). */
export const SYSTEM_FLAGS = ['\\Answered', '\\Flagged', '\\Deleted', '\\Seen', '\\Draft'] as const;

/** Bits of `messages.flags` (db/schema.ts MESSAGE_FLAG_BITS). */
const BITS: Record<string, number> = { '\\answered': 1, '\\deleted': 2, '\\draft': 4 };

/** Keywords a message may carry, and their size: a client cannot grow a row without bound. */
export const KEYWORD_LIMITS = { count: 32, length: 64 };

export type FlagState = Pick<FolderMessageRow, 'read' | 'starred' | 'flags' | 'keywords'>;

/** The flags of a message as IMAP names them: \Seen is `read`, \Flagged is `starred`. */
export function flagsOf(state: FlagState): string[] {
  const flags: string[] = [];
  if (state.flags & 1) flags.push('\\Answered');
  if (state.starred) flags.push('\\Flagged');
  if (state.flags & 2) flags.push('\\Deleted');
  if (state.read) flags.push('\\Seen');
  if (state.flags & 4) flags.push('\\Draft');
  for (const keyword of state.keywords.split(' ')) if (keyword) flags.push(keyword);
  return flags;
}

/** The state after STORE's operation with `flags` (RFC 3501 section 6.4.6). */
export function applyFlags(
  state: FlagState,
  operation: 'replace' | 'add' | 'remove',
  flags: string[],
): FlagState {
  const current = new Set(flagsOf(state).map((flag) => flag.toLowerCase()));
  const given = new Map(flags.map((flag) => [flag.toLowerCase(), flag]));
  const keywords = state.keywords.split(' ').filter(Boolean);
  let next: Set<string>;
  let nextKeywords: string[];
  if (operation === 'replace') {
    next = new Set(given.keys());
    nextKeywords = [...given.values()].filter((flag) => !flag.startsWith('\\'));
  } else if (operation === 'add') {
    next = new Set([...current, ...given.keys()]);
    const known = new Set(keywords.map((k) => k.toLowerCase()));
    nextKeywords = [
      ...keywords,
      ...[...given.values()].filter((f) => !f.startsWith('\\') && !known.has(f.toLowerCase())),
    ];
  } else {
    next = new Set([...current].filter((flag) => !given.has(flag)));
    nextKeywords = keywords.filter((keyword) => !given.has(keyword.toLowerCase()));
  }
  let bits = 0;
  for (const [name, bit] of Object.entries(BITS)) if (next.has(name)) bits |= bit;
  return {
    read: next.has('\\seen') ? 1 : 0,
    starred: next.has('\\flagged') ? 1 : 0,
    flags: bits,
    keywords: nextKeywords
      .filter((keyword) => keyword.length <= KEYWORD_LIMITS.length)
      .slice(0, KEYWORD_LIMITS.count)
      .join(' '),
  };
}

/** Whether two states differ, and the columns to write when they do. */
export function flagChanges(before: FlagState, after: FlagState): MessageFlagChanges | null {
  const changes: MessageFlagChanges = {};
  if (before.read !== after.read) changes.read = after.read;
  if (before.starred !== after.starred) changes.starred = after.starred;
  if (before.flags !== after.flags) changes.flags = after.flags;
  if (before.keywords !== after.keywords) changes.keywords = after.keywords;
  return Object.keys(changes).length === 0 ? null : changes;
}

export function sameFlags(a: FlagState, b: FlagState): boolean {
  return flagChanges(a, b) === null;
}
