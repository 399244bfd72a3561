import { describe, expect, it } from 'vitest';
import { transactions } from './delivery-worker.js';

describe('transactions', () => {
  it('groups the due rows of one message by recipient domain, in the order of their first row', () => {
    const rows = [
      { id: 1, sent_id: 7, rcpt: 'a@one.example' },
      { id: 2, sent_id: 7, rcpt: 'b@two.example' },
      { id: 3, sent_id: 8, rcpt: 'c@one.example' },
      { id: 4, sent_id: 7, rcpt: 'd@ONE.example' },
      { id: 5, sent_id: 7, rcpt: 'e@two.example' },
    ];
    expect(transactions(rows)).toEqual([[1, 4], [2, 5], [3]]);
  });

  it('puts at most 50 recipients in one transaction', () => {
    const rows = Array.from({ length: 120 }, (_, index) => ({
      id: index,
      sent_id: 1,
      rcpt: `r${index}@x.example`,
    }));
    expect(transactions(rows).map((group) => group.length)).toEqual([50, 50, 20]);
  });
});
