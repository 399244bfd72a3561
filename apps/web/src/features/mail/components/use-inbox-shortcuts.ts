import { useEffect, useRef } from 'react';

export type InboxShortcut = 'next' | 'previous' | 'toggle' | 'reply' | 'delete' | 'search' | 'help';

const KEYS: Record<string, InboxShortcut> = {
  j: 'next',
  k: 'previous',
  x: 'toggle',
  r: 'reply',
  '#': 'delete',
  '/': 'search',
  '?': 'help',
};

/**
 * Whether a key pressed on `target` belongs to what is being typed or to a dialog: fields, editors
 * (contenteditable, the compose drawer's editor), selects, and anything inside a drawer or a modal.
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  return (
    target.closest(
      'input, textarea, select, [contenteditable]:not([contenteditable="false"]), [role="combobox"], [role="textbox"], .ant-select, .ant-drawer, .ant-modal',
    ) !== null
  );
}

/** The shortcut a key event asks for, or null (a modifier held, typing, a key of no shortcut). */
export function shortcutOf(event: KeyboardEvent): InboxShortcut | null {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing)
    return null;
  if (isTypingTarget(event.target)) return null;
  // A drawer (compose) is open over the inbox: its keys are its own, wherever the focus is.
  if (document.querySelector('.ant-drawer-open')) return null;
  return KEYS[event.key] ?? null;
}

/** Listens for the inbox's keyboard shortcuts while `enabled`; `handle` may change every render. */
export function useInboxShortcuts(enabled: boolean, handle: (shortcut: InboxShortcut) => void): void {
  const latest = useRef(handle);
  latest.current = handle;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const shortcut = shortcutOf(event);
      if (!shortcut) return;
      // "/" would otherwise be typed into the search box it focuses.
      event.preventDefault();
      latest.current(shortcut);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
