import { describe, expect, it } from 'vitest';
import { formatYuan, stockText } from './sale-domain-list';

describe('store domain card', () => {
  it('shows prices in yuan and what is left to sell', () => {
    expect(formatYuan(990)).toBe('9.90');
    expect(stockText(null)).toBe('库存充足');
    expect(stockText(undefined)).toBe('库存充足');
    expect(stockText(3)).toBe('剩余 3 个');
    expect(stockText(0)).toBe('已售完');
  });
});
