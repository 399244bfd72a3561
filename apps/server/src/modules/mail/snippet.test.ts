import { describe, expect, it } from 'vitest';
import { snippetOf } from './inbound-service.js';

describe('snippetOf', () => {
  it('drops link and image targets left by HTML-to-text and folds whitespace', () => {
    expect(
      snippetOf('会议通知\n\n各位同事：明天开会。 [http://example.com/x.png] 详见 [cid:logo@x] 链接'),
    ).toBe('会议通知 各位同事：明天开会。 详见 链接');
    expect(snippetOf('a'.repeat(300))).toHaveLength(200);
  });
});
