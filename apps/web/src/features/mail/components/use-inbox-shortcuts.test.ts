import { afterEach, describe, expect, it } from 'vitest';
import { shortcutOf } from './use-inbox-shortcuts';

/** The shortcut a key pressed on `target` asks for (the event as the window's listener sees it). */
function press(target: Element, key: string, modifiers: KeyboardEventInit = {}) {
  let seen: ReturnType<typeof shortcutOf> = null;
  const listener = (event: KeyboardEvent) => {
    seen = shortcutOf(event);
  };
  window.addEventListener('keydown', listener);
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...modifiers }));
  window.removeEventListener('keydown', listener);
  return seen;
}

function add(html: string): Element {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  document.body.append(holder);
  return holder.firstElementChild ?? holder;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the inbox shortcuts', () => {
  it('maps j k x r # / ? on the page', () => {
    const body = document.body;
    expect(['j', 'k', 'x', 'r', '#', '/', '?'].map((key) => press(body, key))).toEqual([
      'next',
      'previous',
      'toggle',
      'reply',
      'delete',
      'search',
      'help',
    ]);
    expect(press(body, 'a')).toBeNull();
    expect(press(body, 'J')).toBeNull();
  });

  it('leaves keys with Ctrl, Alt or ⌘ to the browser', () => {
    for (const modifier of ['ctrlKey', 'altKey', 'metaKey'] as const) {
      expect(press(document.body, 'j', { [modifier]: true }), modifier).toBeNull();
    }
    expect(press(document.body, '?', { shiftKey: true })).toBe('help');
  });

  it('leaves typing alone: fields, editors, selects, drawers and dialogs', () => {
    for (const html of [
      '<input type="text">',
      '<textarea></textarea>',
      '<select><option>a</option></select>',
      '<div contenteditable="true"><p>正文</p></div>',
      '<div role="textbox"></div>',
      '<div class="ant-modal"><button>确定</button></div>',
      '<div class="ant-drawer"><button>发送</button></div>',
    ]) {
      const element = add(html);
      const target = element.querySelector('p, button') ?? element;
      expect(press(target, 'j'), html).toBeNull();
    }
    expect(press(add('<div contenteditable="false"><span>x</span></div>'), 'j')).toBe('next');
  });

  it('sleeps while a drawer is open over the inbox, wherever the focus is', () => {
    add('<div class="ant-drawer ant-drawer-open"></div>');
    expect(press(document.body, 'j')).toBeNull();
  });
});
