/**
 * Sequence sets (RFC 3501 section 9 `sequence-set`, RFC 9051 section 9): `1:*,3,5:7`, with `*` for
 * the largest number in use and `$` for the result saved by SEARCHRES (RFC 5182 section 2.1).
 */
import { ImapSyntaxError, parseNumber } from './imap-value.js';

/** `*` stands for the largest message sequence number or UID in the mailbox */
export type SequenceNumber = number | '*';

export interface SequenceRange {
  from: SequenceNumber;
  to: SequenceNumber;
}

/** `$`: the saved search result (RFC 5182), or ranges in the order given */
export type SequenceSet = '$' | SequenceRange[];

export function parseSequenceSet(text: string): SequenceSet {
  if (text === '$') return '$';
  const ranges: SequenceRange[] = [];
  for (const part of text.split(',')) {
    const bounds = part.split(':');
    if (bounds.length > 2) throw new ImapSyntaxError(`bad sequence set "${text.slice(0, 100)}"`);
    const from = sequenceNumber(bounds[0]!, text);
    ranges.push({ from, to: bounds[1] === undefined ? from : sequenceNumber(bounds[1], text) });
  }
  return ranges;
}

/** `nz-number` or `*`; 0 is not a sequence number. */
function sequenceNumber(text: string, whole: string): SequenceNumber {
  if (text === '*') return '*';
  const number = /^[1-9][0-9]*$/.test(text) ? parseNumber(text, 'sequence number') : 0;
  if (number === 0) throw new ImapSyntaxError(`bad sequence set "${whole.slice(0, 100)}"`);
  return number;
}

/**
 * The set as sorted, merged, inclusive ranges, `*` read as `largest`. `3:1` is `1:3` (RFC 3501
 * section 9: "the order of the numbers is not significant"). A number past `largest` stays:
 * UID sets may name UIDs that no longer exist.
 */
export function resolveSequenceSet(set: SequenceRange[], largest: number): Array<[number, number]> {
  const value = (number: SequenceNumber): number => (number === '*' ? largest : number);
  const ranges = set
    .map(({ from, to }): [number, number] => {
      const [a, b] = [value(from), value(to)];
      return a <= b ? [a, b] : [b, a];
    })
    .sort((x, y) => x[0] - y[0]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range[0] <= last[1] + 1) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

export function sequenceSetHas(set: SequenceRange[], number: number, largest: number): boolean {
  return sequenceSetMatcher(set, largest)(number);
}

/**
 * A membership test resolved once: a binary search over the merged ranges. A 64 KiB command line
 * holds some 10,000 ranges (`1,3,5,…`); testing every message of a big folder against every range,
 * or resolving the set again for each message, would hold the event loop for seconds per command.
 */
export function sequenceSetMatcher(set: SequenceRange[], largest: number): (number: number) => boolean {
  const ranges = resolveSequenceSet(set, largest);
  return (number) => {
    let low = 0;
    let high = ranges.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const [from, to] = ranges[middle] as [number, number];
      if (number < from) high = middle - 1;
      else if (number > to) low = middle + 1;
      else return true;
    }
    return false;
  };
}

/** Numbers written as a compact set, sorted, `1:3,7`. */
export function formatSequenceSet(numbers: Iterable<number>): string {
  return formatUidList([...new Set(numbers)].sort((a, b) => a - b));
}

/**
 * Numbers in the order given, runs of consecutive ones as ranges: COPYUID pairs its two sets
 * element by element (RFC 4315 section 3), so they must not be sorted apart.
 */
export function formatUidList(numbers: readonly number[]): string {
  const parts: string[] = [];
  for (let at = 0; at < numbers.length; ) {
    let end = at;
    while (end + 1 < numbers.length && numbers[end + 1] === numbers[end]! + 1) end++;
    parts.push(end === at ? `${numbers[at]}` : `${numbers[at]}:${numbers[end]}`);
    at = end + 1;
  }
  return parts.join(',');
}
