import { useQueryClient } from '@tanstack/react-query';
import type { MailItem } from '@youju/contract';
import { useEffect, useRef } from 'react';
import { openEventStream } from '../../../lib/http';
import { invalidateMailLists } from './get-inbox';

/** A `mail` event's data: the new message as a list item, or null when it does not parse. */
export function parseMailEvent(data: string): MailItem | null {
  try {
    return JSON.parse(data) as MailItem;
  } catch {
    return null;
  }
}

/**
 * Keeps the open inbox live through GET /api/user/events: a new message (event `mail`) refreshes the
 * lists and unread counts (and is handed to `onMail`, e.g. for a notice), without reloading the page.
 * After a break in the stream the lists are refreshed too, since mail may have arrived meanwhile.
 */
export function useMailEvents(onMail?: (item: MailItem) => void): void {
  const queryClient = useQueryClient();
  const onMailRef = useRef(onMail);
  onMailRef.current = onMail;
  useEffect(() => {
    const refresh = () => {
      void invalidateMailLists(queryClient);
    };
    return openEventStream({
      path: '/user/events',
      events: {
        mail: (data) => {
          const item = parseMailEvent(data);
          refresh();
          // A malformed event changes nothing; the refreshed lists show the truth.
          if (item) onMailRef.current?.(item);
        },
      },
      onReconnect: refresh,
      onGiveUp: refresh,
    });
  }, [queryClient]);
}
