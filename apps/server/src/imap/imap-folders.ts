import type { FolderName } from '../modules/mail/index.js';

/** Each folder's name on the wire and its SPECIAL-USE attribute (RFC 6154 section 2). */
export const IMAP_FOLDERS: readonly { name: FolderName; wire: string; specialUse: string | null }[] = [
  { name: 'inbox', wire: 'INBOX', specialUse: null },
  { name: 'sent', wire: 'Sent', specialUse: '\\Sent' },
  { name: 'drafts', wire: 'Drafts', specialUse: '\\Drafts' },
  { name: 'junk', wire: 'Junk', specialUse: '\\Junk' },
  { name: 'trash', wire: 'Trash', specialUse: '\\Trash' },
];

/**
 * The folder a client names: `INBOX` in any case (RFC 3501 section 5.1), the others as listed or in
 * another case (clients differ in how they spell them). Null: no such folder.
 */
export function folderByWireName(wire: string): FolderName | null {
  const lower = wire.toLowerCase();
  return IMAP_FOLDERS.find((folder) => folder.wire.toLowerCase() === lower)?.name ?? null;
}

export function wireNameOf(folder: FolderName): string {
  return IMAP_FOLDERS.find((entry) => entry.name === folder)?.wire ?? 'INBOX';
}

/**
 * LIST's `list-mailbox` pattern (RFC 3501 section 6.3.8) as a test: `*` matches anything, `%`
 * anything but the hierarchy delimiter; INBOX matches in any case.
 */
export function listPattern(reference: string, pattern: string): (wire: string) => boolean {
  const whole = `${reference}${pattern}`;
  let source = '';
  for (const char of whole) {
    if (char === '*') source += '.*';
    else if (char === '%') source += '[^/]*';
    else source += char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  const expression = new RegExp(`^${source}$`, 'i');
  return (wire) => expression.test(wire);
}
