import { describe, expect, it } from 'vitest';
import { parseMailEvent } from './mail-events';

describe('parseMailEvent', () => {
  it('reads the new message of a mail event, and nothing from a malformed one', () => {
    expect(parseMailEvent(JSON.stringify({ id: 5, subject: '你好' }))).toMatchObject({
      id: 5,
      subject: '你好',
    });
    expect(parseMailEvent('{not json')).toBeNull();
  });
});
